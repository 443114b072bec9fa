import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queue } from '../../src/queue/types.js';
import { until } from '../support/wait.js';

/** `backlog`: how deep a queue is and how long its oldest ready job waits, on both adapters. */
export function backlogContract(
  label: string,
  open: () => Promise<{ queue: Queue; close: () => Promise<void> }>,
): void {
  describe(`queue backlog: ${label}`, () => {
    let queue: Queue;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ queue, close } = await open());
      await queue.start();
    });
    afterAll(async () => {
      await queue.stop({ graceMs: 1000 });
      await close();
    });

    it('counts waiting jobs, ready ones apart from delayed ones, and dates the oldest ready one', async () => {
      const empty = await queue.backlog('backlog-a');
      expect(empty).toEqual({ waiting: 0, ready: 0, oldestReadyAt: null });
      await queue.createQueue('backlog-a');
      await queue.createQueue('backlog-b');
      const before = Date.now();
      await queue.send('backlog-a', { i: 1 });
      await queue.send('backlog-a', { i: 2 });
      await queue.send('backlog-a', { i: 3 }, { startAfter: 3600 });
      await queue.send('backlog-b', { i: 4 });
      const a = await queue.backlog('backlog-a');
      expect(a).toMatchObject({ waiting: 3, ready: 2 });
      // The database's clock and ours are the same machine's; a second of slack covers rounding.
      expect(a.oldestReadyAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(a.oldestReadyAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await queue.backlog()).toMatchObject({ waiting: 4, ready: 3 });
    });

    it('a job taken by a worker no longer waits', async () => {
      await queue.createQueue('backlog-c');
      await queue.send('backlog-c', {});
      expect((await queue.backlog('backlog-c')).ready).toBe(1);
      let ran = false;
      await queue.work('backlog-c', { pollIntervalMs: 50 }, async () => {
        ran = true;
      });
      await until(() => ran, { message: 'job ran' });
      expect(await queue.backlog('backlog-c')).toEqual({ waiting: 0, ready: 0, oldestReadyAt: null });
    });
  });
}
