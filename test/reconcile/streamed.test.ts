import { streamedSuite } from './streamed.suite.js';

streamedSuite('sqlite', 20);
