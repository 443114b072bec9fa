// The worker thread's first module: threads do not inherit the loader bin/wms-sync.js registered,
// so this one registers it before loading the TypeScript entry (same sources as the CLI runs).
import { register } from 'tsx/esm/api';

register();
await import('./worker-thread-entry.ts');
