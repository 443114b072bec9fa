import { browserDocsSuite } from './browser-docs.suite.js';

browserDocsSuite('sqlite');
