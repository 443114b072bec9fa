import { browserA11ySuite } from './browser-a11y.suite.js';

browserA11ySuite('postgres');
