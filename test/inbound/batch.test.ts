import { batchSuite } from './batch.suite.js';

batchSuite('sqlite');
