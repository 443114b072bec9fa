import { beforeEach, describe, expect, it } from 'vitest';
import type { QueueEvents } from '../../src/queue/types.js';
import { isStoreUnavailable } from '../../src/store/unavailable.js';
import { until } from '../support/wait.js';
import { type QueueFixture, useFixture } from './queue.contract.js';

export interface StoreFaultOptions {
  /** A real error of a store that failed (unreachable, disk full), as its driver throws it. */
  fault(): Promise<Error>;
  /** Moves the queue's time on (the injected clock), so a job put back for later becomes due. */
  tick(): void;
}

/**
 * A handler that failed because the store failed did not fail its job: on both adapters the job
 * goes back in line without spending an attempt, so even a job with no retry left is never made
 * dead by a database outage or a full disk, and it is never left active.
 */
export function storeFaultContract(label: string, open: () => Promise<QueueFixture>, options: StoreFaultOptions): void {
  describe(`queue and store faults: ${label}`, () => {
    const { f: fixture, qname } = useFixture(open);
    let f: QueueFixture;
    beforeEach(() => {
      f = fixture();
    });

    it('runs a job whose handler hit a failing store again, its attempt not spent, until it succeeds', async () => {
      const name = qname('store-fault');
      const fault = await options.fault();
      expect(isStoreUnavailable(fault)).toBe(true);
      const failed: QueueEvents['failed'][0][] = [];
      f.queue.on('failed', (e) => {
        if (e.name === name) failed.push(e);
      });
      const runs: number[] = [];
      await f.queue.work(name, { pollIntervalMs: 50 }, async (job) => {
        runs.push(job.retryCount);
        // Wrapped, as a handler's own error would carry the driver's (`cause`).
        if (runs.length <= 3) throw new Error('processing failed', { cause: fault });
      });
      // No retry left: one counted failure would make it dead.
      const id = (await f.queue.send(name, {}, { retryLimit: 0 }))!;
      const info = await until(
        async () => {
          options.tick();
          const job = await f.queue.getJob(name, id);
          return job?.state === 'completed' || job?.state === 'failed' ? job : undefined;
        },
        { everyMs: 50, message: 'the job ends' },
      );
      expect(info.state).toBe('completed');
      expect(runs).toEqual([0, 0, 0, 0]);
      expect(failed.map((e) => e.dead)).toEqual([false, false, false]);
      expect((await f.queue.listDead({ name })).length).toBe(0);
    });

    it('still counts the attempts of a handler that failed on its own', async () => {
      const name = qname('own-fault');
      const dead = new Promise<QueueEvents['failed'][0]>((resolve) =>
        f.queue.on('failed', (e) => {
          if (e.name === name && e.dead) resolve(e);
        }),
      );
      await f.queue.work(name, { pollIntervalMs: 50 }, async () => {
        throw new Error('the payload is wrong');
      });
      const id = (await f.queue.send(name, {}, { retryLimit: 0 }))!;
      expect(await dead).toMatchObject({ id, dead: true });
      expect((await f.queue.getJob(name, id))?.state).toBe('failed');
    });
  });
}
