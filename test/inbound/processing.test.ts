import { processingSuite } from './processing.suite.js';

processingSuite('sqlite');
