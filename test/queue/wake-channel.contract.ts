import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Queue } from '../../src/queue/types.js';
import { nextEvent } from './events.js';

export interface WakePair {
  /** Sends only, as `serve`'s receiver thread does. */
  sender: Queue;
  /** Works the queue, as `serve`'s worker thread does; both opened with `wakeChannel`, not started. */
  worker: Queue;
  /** Closes what `open` opened once the contract has stopped both queues. */
  close(): Promise<void>;
}

/**
 * `serve` sends processing jobs on its receiver's thread and works them on its worker thread: a
 * send must wake the other thread's idle loop at once, not at its next poll. The loops here poll
 * once an hour, so a job picked up before the test's timeout was woken by the channel.
 */
export function wakeChannelContract(label: string, open: (wakeChannel: string) => Promise<WakePair>): void {
  describe(`queue wake channel (${label})`, () => {
    it("a send on one queue wakes the other's idle loop on the same channel", async () => {
      const pair = await open(`test-wake:${randomUUID()}`);
      await pair.sender.start();
      await pair.worker.start();
      const name = `wake-${randomUUID().slice(0, 8)}`;
      await pair.worker.createQueue(name);
      const seen: number[] = [];
      // batchSize 2: a batch of one job is not full, so the loop sleeps after it instead of fetching again.
      await pair.worker.work<{ n: number }>(name, { pollIntervalMs: 3_600_000, batchSize: 2 }, async (job) => {
        seen.push(job.data.n);
      });
      // A first job sent on the worker's own queue: once it is done, its loop is idle for an hour.
      const first = nextEvent(pair.worker, 'completed', (e) => e.name === name);
      await pair.worker.send(name, { n: 1 });
      await first;
      const second = nextEvent(pair.worker, 'completed', (e) => e.name === name, 20_000);
      await pair.sender.send(name, { n: 2 });
      await second;
      expect(seen).toEqual([1, 2]);
      await Promise.all([pair.sender.stop({ graceMs: 1000 }), pair.worker.stop({ graceMs: 1000 })]);
      await pair.close();
    });
  });
}
