import { sweepSuite } from './sweep.suite.js';

sweepSuite('sqlite');
