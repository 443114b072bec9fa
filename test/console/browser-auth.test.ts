import { browserAuthSuite } from './browser-auth.suite.js';

browserAuthSuite('sqlite');
