import { pushLeaseSuite } from './push-lease.suite.js';

pushLeaseSuite('postgres');
