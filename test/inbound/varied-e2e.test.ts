import { variedE2eSuite } from './varied-e2e.suite.js';

variedE2eSuite('sqlite');
