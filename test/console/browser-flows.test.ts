import { browserFlowsSuite } from './browser-flows.suite.js';

browserFlowsSuite('sqlite');
