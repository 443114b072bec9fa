import { failuresSuite } from './failures.suite.js';

failuresSuite('sqlite');
