import { createLogger } from '../../src/lib/logger.js';
import { createMetricsRegistry } from '../../src/lib/metrics.js';
import { installProcessGuard } from '../../src/lib/process-guard.js';

/**
 * A process with the guard installed, for test/lib/process-guard.test.ts: it throws a peer's socket
 * error from a timer (it must go on and print its counter), then, when asked, a programming error
 * (it must exit 70 with the reason logged).
 */
const registry = createMetricsRegistry();
installProcessGuard({ logger: createLogger({ level: 'info' }), registry });
setTimeout(() => {
  throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
}, 0);
setTimeout(() => {
  Promise.reject(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
}, 10);
setTimeout(async () => {
  process.stdout.write(`${await registry.metrics()}\nSTILL ALIVE\n`);
  if (process.argv.includes('--then-bug'))
    setTimeout(() => {
      (undefined as unknown as { csrf: string }).csrf;
    }, 0);
  else process.exit(0);
}, 50);
