import { pushFlowSuite } from './push-flow.suite.js';

pushFlowSuite('sqlite');
