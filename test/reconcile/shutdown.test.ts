import { shutdownSuite } from './shutdown.suite.js';

shutdownSuite('sqlite');
