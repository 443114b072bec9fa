import { shutdownSuite } from './shutdown.suite.js';

shutdownSuite('postgres');
