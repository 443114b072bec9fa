import { feedSuite } from './feed.suite.js';

feedSuite('sqlite');
