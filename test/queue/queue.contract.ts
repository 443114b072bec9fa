import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** The queue port's guarantees, run against the embedded queue and pg-boss alike. */
export function queueContract(label: string, open: () => Promise<QueueFixture>): void {
  describe(`queue contract: ${label}`, () => {
    let f: QueueFixture;
    let n = 0;
    const qname = (p: string) => `${p}-${++n}`;

    beforeAll(async () => {
      f = await open();
      await f.queue.start();
    });
    afterAll(async () => {
      await f.queue.stop({ graceMs: 1000 });
      await f.close();
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
      await f.queue.sendMany(name, Array.from({ length: 200 }, (_, i) => ({ data: { i } })));
      await until(() => seen.size === 200, { timeoutMs: 20_000, message: 'all 200 jobs run' });
      expect([...seen.values()].every((c) => c === 1)).toBe(true);
      await until(async () => (await f.queue.counts(name)).completed === 200, { message: 'all completed' });
    });

    it('retries a failing job with exponential backoff, then succeeds', async () => {
      const name = qname('retry');
      let attempts = 0;
      await f.queue.work(name, { pollIntervalMs: 100 }, async (job) => {
        attempts++;
        expect(job.retryCount).toBe(attempts - 1);
        if (attempts < 3) throw new Error(`attempt ${attempts} fails`);
      });
      const firstFailure = nextEvent(f.queue, 'failed', (e) => e.name === name);
      const id = (await f.queue.send(name, {}, { retryLimit: 3, retryDelay: 1, retryBackoff: true }))!;
      const failed1 = await firstFailure;
      const t1 = Date.now();
      expect(failed1).toMatchObject({ dead: false });
      const after1 = (await f.queue.getJob(name, id))!;
      expect(after1.state).toBe('retry');
      // spec of the port (pg-boss's formula): delay × 2^retryCount × (1 + random), in seconds.
      expect(after1.startAfter.getTime() - t1).toBeGreaterThan(1000 - 300);
      expect(after1.startAfter.getTime() - t1).toBeLessThanOrEqual(2000 + 300);

      const failed2 = await nextEvent(f.queue, 'failed', (e) => e.name === name);
      const t2 = Date.now();
      expect(failed2.error.message).toBe('attempt 2 fails');
      const after2 = (await f.queue.getJob(name, id))!;
      expect(after2.startAfter.getTime() - t2).toBeGreaterThan(2000 - 300);
      expect(after2.startAfter.getTime() - t2).toBeLessThanOrEqual(4000 + 300);

      await nextEvent(f.queue, 'completed', (e) => e.id === id);
      expect(attempts).toBe(3);
    });

    it('ends in the dead state with the error kept after the last retry, and can be retried from there', async () => {
      const name = qname('dead');
      let fail = true;
      let runs = 0;
      await f.queue.work(name, { pollIntervalMs: 100 }, async () => {
        runs++;
        if (fail) throw new Error('permanent failure');
      });
      const dead = nextEvent(f.queue, 'failed', (e) => e.name === name && e.dead);
      const id = (await f.queue.send(name, { x: 1 }, { retryLimit: 1, retryDelay: 0, retryBackoff: false }))!;
      await dead;
      expect(runs).toBe(2);
      const info = (await f.queue.getJob(name, id))!;
      expect(info.state).toBe('failed');
      expect(info.output).toMatchObject({ message: 'permanent failure' });
      const listed = await f.queue.listDead({ name });
      expect(listed.map((j) => j.id)).toEqual([id]);
      expect(listed[0]).toMatchObject({ data: { x: 1 }, output: { message: 'permanent failure' } });

      fail = false;
      const done = nextEvent(f.queue, 'completed', (e) => e.id === id);
      expect(await f.queue.retryDead(name, id)).toBe(true);
      await done;
      expect(await f.queue.retryDead(name, id)).toBe(false);
      expect(await f.queue.listDead({ name })).toEqual([]);
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
      await f.queue.work<{ k: string; i: number }>(name, { batchSize: 5, concurrency: 3, pollIntervalMs: 100 }, async (job) => {
        running.set(job.data.k, (running.get(job.data.k) ?? 0) + 1);
        maxParallelPerKey = Math.max(maxParallelPerKey, running.get(job.data.k)!);
        started.add(`${job.data.k}${job.data.i}`);
        if (job.data.k === 'a' && job.data.i === 1) await gate;
        ran.push(`${job.data.k}${job.data.i}`);
        running.set(job.data.k, running.get(job.data.k)! - 1);
      });
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
      const id = (await f.queue.send(name, {}, { startAfter: 2 }))!;
      expect((await f.queue.getJob(name, id))?.state).toBe('created');
      await nextEvent(f.queue, 'completed', (e) => e.id === id);
      expect(startedAt - sentAt).toBeGreaterThanOrEqual(1900);
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

    it('runs a killed worker’s job again once its lease expires', async () => {
      const name = qname('lease');
      let crashedRunStarted!: () => void;
      const claimed = new Promise<void>((r) => (crashedRunStarted = r));
      // This worker takes the job and never finishes it: the process it stands for was killed.
      await f.queue.work(name, { pollIntervalMs: 100 }, () => {
        crashedRunStarted();
        return new Promise<void>(() => undefined);
      });
      const id = (await f.queue.send(name, { v: 1 }, { expireInSeconds: 1, retryLimit: 2, retryDelay: 0, retryBackoff: false }))!;
      await claimed;
      const peer = await f.openPeer();
      await peer.queue.start();
      const retries: number[] = [];
      await peer.queue.work(name, { pollIntervalMs: 100 }, async (job) => {
        retries.push(job.retryCount);
      });
      await nextEvent(peer.queue, 'completed', (e) => e.id === id, 20_000);
      expect(retries).toEqual([1]);
      await peer.queue.stop({ graceMs: 1000 });
      await peer.close();
    });

    it('reports a job whose worker was killed on its last attempt as dead once its lease expires', async () => {
      const name = qname('lease-dead');
      let started!: () => void;
      const claimed = new Promise<void>((r) => (started = r));
      // The only attempt: its worker never finishes it (killed), so the lease is what ends it.
      await f.queue.work(name, { pollIntervalMs: 100 }, () => {
        started();
        return new Promise<void>(() => undefined);
      });
      const dead = nextEvent(f.queue, 'failed', (e) => e.name === name && e.dead, 20_000);
      const id = (await f.queue.send(name, { v: 1 }, { expireInSeconds: 1, retryLimit: 0 }))!;
      await claimed;
      // Listeners of dead jobs (inbound events marked failed, a reconciliation run ended) rely on this event.
      expect(await dead).toMatchObject({ name, id, dead: true });
      expect((await f.queue.getJob(name, id))?.state).toBe('failed');
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
      let finished = false;
      let began!: () => void;
      const started = new Promise<void>((r) => (began = r));
      await peer.queue.work(name, { pollIntervalMs: 100 }, async () => {
        began();
        await new Promise((r) => setTimeout(r, 300));
        finished = true;
      });
      await peer.queue.send(name, {});
      await started;
      await peer.queue.stop({ graceMs: 5000 });
      expect(finished).toBe(true);
      await peer.close();
    });

    it('answers ping while the database is reachable', async () => {
      await f.queue.ping();
    });
  });
}
