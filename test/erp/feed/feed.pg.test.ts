import { feedSuite } from './feed.suite.js';

feedSuite('postgres');
