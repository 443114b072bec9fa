import { leaseSuite } from './lease.suite.js';

leaseSuite('sqlite');
