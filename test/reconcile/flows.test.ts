import { flowsSuite } from './flows.suite.js';

flowsSuite('sqlite');
