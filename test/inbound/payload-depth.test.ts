import { payloadDepthSuite } from './payload-depth.suite.js';

payloadDepthSuite('sqlite');
