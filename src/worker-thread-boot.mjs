// The worker thread's first module: threads do not inherit the loader bin/wms-sync.js registered,
// so this one registers it before loading the TypeScript entry (same sources as the CLI runs).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
