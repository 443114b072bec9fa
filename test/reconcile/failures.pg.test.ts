import { failuresSuite } from './failures.suite.js';

failuresSuite('postgres');
