import { pushSuite } from './push.suite.js';

pushSuite('postgres');
