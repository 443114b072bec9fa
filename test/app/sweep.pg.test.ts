import { sweepSuite } from './sweep.suite.js';

sweepSuite('postgres');
