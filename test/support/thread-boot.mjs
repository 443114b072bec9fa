// Runs a TypeScript module on a worker thread of a test: threads do not inherit vitest's loader.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
