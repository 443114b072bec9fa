import { crashSuite } from './crash.suite.js';

crashSuite('sqlite');
