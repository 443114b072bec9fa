import { crashSuite } from './crash.suite.js';

// The same crash with the jobs on serve's worker thread (WORKER_THREAD=true): the kill takes both
// threads, and a thread's jobs come back through their leases like a single thread's.
crashSuite('sqlite', { WORKER_THREAD: 'true' });
