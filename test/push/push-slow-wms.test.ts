import { pushSlowWmsSuite } from './push-slow-wms.suite.js';

pushSlowWmsSuite('sqlite');
