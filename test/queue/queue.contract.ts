import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Queue } from '../../src/queue/types.js';
import type { Store } from '../../src/store/types.js';
import { until } from '../support/wait.js';
import { nextEvent } from './events.js';

export interface QueueFixture {
  store: Store;
  queue: Queue;
  /** A second queue (and store) on the same database, as another process would have. */
  openPeer(): Promise<{ queue: Queue; close: () => Promise<void> }>;
  close(): Promise<void>;
}

/**
 * Opens the fixture for the enclosing describe (started before its tests, stopped after them);
 * `f()` is the open fixture, `qname` a queue name of its own for each test.
 */
export function useFixture(open: () => Promise<QueueFixture>): {
  f: () => QueueFixture;
  qname: (prefix: string) => string;
} {
  let fixture: QueueFixture | undefined;
  let n = 0;
  beforeAll(async () => {
    fixture = await open();
    await fixture.queue.start();
  });
  afterAll(async () => {
    await fixture?.queue.stop({ graceMs: 1000 });
    await fixture?.close();
  });
  return { f: () => fixture!, qname: (prefix) => `${prefix}-${++n}` };
}

/** The queue port's guarantees, run against the embedded queue and pg-boss alike. */
export function queueContract(label: string, open: () => Promise<QueueFixture>): void {
  describe(`queue contract: ${label}`, () => {
    const { f: fixture, qname } = useFixture(open);
    let f: QueueFixture;
    beforeEach(() => {
      f = fixture();
    });

    it('runs a sent job with its data, and reports it completed', async () => {
      const name = qname('basic');
      const seen: unknown[] = [];
      await f.queue.work<{ n: number }>(name, { pollIntervalMs: 200 }, async (job) => {
        seen.push(job.data);
        expect(job.retryCount).toBe(0);
      });
      const done = nextEvent(f.queue, 'completed', (e) => e.name === name);
      const id = await f.queue.send(name, { n: 42 });
      expect((await done).id).toBe(id);
      expect(seen).toEqual([{ n: 42 }]);
      expect((await f.queue.getJob(name, id!))?.state).toBe('completed');
    });

    it('runs many jobs in batches, all exactly once', async () => {
      const name = qname('many');
      const seen = new Map<number, number>();
      await f.queue.work<{ i: number }>(name, { batchSize: 25, concurrency: 2, pollIntervalMs: 200 }, async (job) => {
        seen.set(job.data.i, (seen.get(job.data.i) ?? 0) + 1);
      });
      await f.queue.sendMany(
        name,
        Array.from({ length: 200 }, (_, i) => ({ data: { i } })),
      );
      await until(() => seen.size === 200, { timeoutMs: 20_000, message: 'all 200 jobs run' });
      expect([...seen.values()].every((c) => c === 1)).toBe(true);
      await until(async () => (await f.queue.counts(name)).completed === 200, { message: 'all completed' });
    });

    it('retries a failing job after a delay, then succeeds; the retry never starts before its time', async () => {
      const name = qname('retry');
      const starts: number[] = [];
      let thrownAt = 0;
      await f.queue.work(name, { pollIntervalMs: 100 }, async (job) => {
        starts.push(Date.now());
        expect(job.retryCount).toBe(starts.length - 1);
        if (starts.length < 2) {
          thrownAt = Date.now();
          throw new Error(`attempt ${starts.length} fails`);
        }
      });
      const failure = nextEvent(f.queue, 'failed', (e) => e.name === name);
      const id = (await f.queue.send(name, {}, { retryLimit: 3, retryDelay: 1, retryBackoff: true }))!;
      expect(await failure).toMatchObject({ dead: false, error: { message: 'attempt 1 fails' } });
      const failedBy = Date.now();
      const after = (await f.queue.getJob(name, id))!;
      expect(after.state).toBe('retry');
      // The port promises a delay, with backoff, in [0, 2 × retryDelay × 2^retryCount] (the embedded
      // queue's full jitter and pg-boss's own formula both fit); bounded by when the failure was
      // recorded, measured on either side of it, never by a wall-clock window.
      expect(after.startAfter.getTime()).toBeGreaterThanOrEqual(thrownAt);
      expect(after.startAfter.getTime()).toBeLessThanOrEqual(failedBy + 2 * 1000);
      await nextEvent(f.queue, 'completed', (e) => e.id === id);
      expect(starts).toHaveLength(2);
      expect(starts[1]).toBeGreaterThanOrEqual(after.startAfter.getTime());
    });

    it('stately queue: one waiting job per singleton key, never two running at once', async () => {
      const name = qname('singleton');
      await f.queue.createQueue(name, { policy: 'stately' });
      const first = await f.queue.send(name, { k: 'a', i: 1 }, { singletonKey: 'a' });
      expect(first).not.toBeNull();
      expect(await f.queue.send(name, { k: 'a', i: 2 }, { singletonKey: 'a' })).toBeNull();
      expect(await f.queue.send(name, { k: 'b', i: 1 }, { singletonKey: 'b' })).not.toBeNull();

      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const running = new Map<string, number>();
      let maxParallelPerKey = 0;
      const ran: string[] = [];
      const started = new Set<string>();
      await f.queue.work<{ k: string; i: number }>(
        name,
        { batchSize: 5, concurrency: 3, pollIntervalMs: 100 },
        async (job) => {
          running.set(job.data.k, (running.get(job.data.k) ?? 0) + 1);
          maxParallelPerKey = Math.max(maxParallelPerKey, running.get(job.data.k)!);
          started.add(`${job.data.k}${job.data.i}`);
          if (job.data.k === 'a' && job.data.i === 1) await gate;
          ran.push(`${job.data.k}${job.data.i}`);
          running.set(job.data.k, running.get(job.data.k)! - 1);
        },
      );
      await until(() => started.has('a1'), { message: 'a1 running' });
      // While a1 runs, one more job for key a may wait; it must not start before a1 ends.
      const second = await f.queue.send(name, { k: 'a', i: 3 }, { singletonKey: 'a' });
      expect(second).not.toBeNull();
      expect(await f.queue.send(name, { k: 'a', i: 4 }, { singletonKey: 'a' })).toBeNull();
      await until(() => ran.includes('b1'), { message: 'b1 ran' });
      expect(started.has('a3')).toBe(false);
      release();
      await until(() => ran.includes('a3'), { message: 'a3 ran after a1' });
      expect(ran.indexOf('a1')).toBeLessThan(ran.indexOf('a3'));
      expect(maxParallelPerKey).toBe(1);
    });

    it('does not start a delayed job before its time', async () => {
      const name = qname('delayed');
      let startedAt = 0;
      await f.queue.work(name, { pollIntervalMs: 100 }, async () => {
        startedAt = Date.now();
      });
      const sentAt = Date.now();
      const id = (await f.queue.send(name, {}, { startAfter: 1 }))!;
      const info = (await f.queue.getJob(name, id))!;
      expect(info.state).toBe('created');
      expect(info.startAfter.getTime()).toBeGreaterThanOrEqual(sentAt + 1000);
      await nextEvent(f.queue, 'completed', (e) => e.id === id);
      expect(startedAt).toBeGreaterThanOrEqual(info.startAfter.getTime());
    });

    it('a job sent in a transaction that rolls back does not exist; one that commits runs', async () => {
      const name = qname('tx');
      const ran: string[] = [];
      await f.queue.work<{ v: string }>(name, { pollIntervalMs: 100 }, async (job) => {
        ran.push(job.data.v);
      });
      await expect(
        f.store.transaction(async (tx) => {
          await tx.inbox.record({ connection: 'q', kind: 'k', dedupeKey: `${name}-rb`, payload: '{}', at: new Date() });
          await f.queue.send(name, { v: 'rolled back' }, { tx });
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const counts = await f.queue.counts(name);
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(0);
      expect(await f.store.inbox.findByKey('q', `${name}-rb`)).toBeUndefined();

      const done = nextEvent(f.queue, 'completed', (e) => e.name === name);
      await f.store.transaction(async (tx) => {
        await tx.inbox.record({ connection: 'q', kind: 'k', dedupeKey: `${name}-ok`, payload: '{}', at: new Date() });
        await f.queue.send(name, { v: 'committed' }, { tx });
      });
      await done;
      expect(ran).toEqual(['committed']);
    });

    it('sends a job at each cron tick', async () => {
      const name = qname('cron');
      const ran: unknown[] = [];
      await f.queue.work(name, { pollIntervalMs: 100 }, async (job) => {
        ran.push(job.data);
      });
      await f.queue.schedule(name, '* * * * *', { from: 'cron' });
      await nextEvent(f.queue, 'completed', (e) => e.name === name, 20_000);
      expect(ran).toEqual([{ from: 'cron' }]);
      await f.queue.unschedule(name);
      await expect(f.queue.schedule(name, 'not a cron')).rejects.toThrow();
    });

    it('stop waits for running handlers within the grace period', async () => {
      const peer = await f.openPeer();
      await peer.queue.start();
      const name = qname('grace');
      const order: string[] = [];
      let began!: () => void;
      const started = new Promise<void>((r) => (began = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      await peer.queue.work(name, { pollIntervalMs: 100 }, async () => {
        began();
        await gate;
        order.push('handler finished');
      });
      await peer.queue.send(name, {});
      await started;
      const stopped = peer.queue.stop({ graceMs: 10_000 }).then(() => order.push('stopped'));
      // Give a stop that would not wait every chance to end first: database round trips.
      for (let i = 0; i < 3; i++) await f.queue.ping();
      order.push('released');
      release();
      await stopped;
      expect(order).toEqual(['released', 'handler finished', 'stopped']);
      await peer.close();
    });

    it('answers ping while the database is reachable', async () => {
      await f.queue.ping();
    });
  });
}
