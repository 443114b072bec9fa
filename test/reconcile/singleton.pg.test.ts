import { singletonSuite } from './singleton.suite.js';

singletonSuite('postgres');
