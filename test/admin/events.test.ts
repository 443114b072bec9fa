import { adminEventsSuite } from './events.suite.js';

adminEventsSuite('sqlite');
