import { growthSuite } from './growth.suite.js';

growthSuite('sqlite');
