import { processingSuite } from './processing.suite.js';

processingSuite('postgres');
