import { captureReplaySuite } from './capture-replay.suite.js';

captureReplaySuite('sqlite');
