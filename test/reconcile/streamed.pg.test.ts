import { streamedSuite } from './streamed.suite.js';

streamedSuite('postgres', 10);
