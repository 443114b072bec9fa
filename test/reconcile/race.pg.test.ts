import { raceSuite } from './race.suite.js';

raceSuite('postgres');
