import { flowsSuite } from './flows.suite.js';

flowsSuite('postgres');
