import { pushSuite } from './push.suite.js';

pushSuite('sqlite');
