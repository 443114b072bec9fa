import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.js';
import { silentLogger } from '../../src/lib/logger.js';
import { type OpenedDeps, openDeps } from '../../src/main.js';
import { newSharedLockMemory } from '../../src/store/index.js';
import { tempDir } from '../support/tmp.js';

/**
 * What each of `serve`'s two threads opens (src/main.ts, `shared`): the receiver's side collects
 * the process's own metrics and runs the checkpoints, the worker's neither (its registry is merged
 * into the receiver's `/metrics`, where the process's CPU and memory would otherwise count twice).
 */
describe('openDeps for the two threads of serve', () => {
  const opened: OpenedDeps[] = [];
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    for (const deps of opened.splice(0).reverse()) {
      await deps.queue.stop({ graceMs: 0 });
      await deps.store.close();
    }
    for (const c of cleanups.splice(0)) c();
  });

  it('the process metrics are registered on the receiver side only', async () => {
    const tmp = tempDir('thread-deps');
    cleanups.push(tmp.remove);
    const config = loadConfig({ DATA_DIR: tmp.dir });
    const memory = newSharedLockMemory();
    const wakeChannel = `thread-deps-${process.pid}`;
    const receiver = await openDeps(config, {
      logger: silentLogger(),
      shared: { sharedLock: memory, wakeChannel, side: 'receiver' },
    });
    opened.push(receiver);
    const worker = await openDeps(config, {
      logger: silentLogger(),
      shared: { sharedLock: memory, wakeChannel, side: 'worker' },
    });
    opened.push(worker);
    const cpu = 'wms_sync_process_cpu_user_seconds_total';
    expect(receiver.metrics.getSingleMetric(cpu)).toBeDefined();
    expect(worker.metrics.getSingleMetric(cpu)).toBeUndefined();
  });
});
