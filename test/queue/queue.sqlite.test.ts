import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../src/lib/backoff.js';
import { ManualClock } from '../../src/lib/clock.js';
import { SqliteQueue } from '../../src/queue/sqlite/queue.js';
import { prepareStatements } from '../../src/queue/sqlite/statements.js';
import { jobRetryDelayMs, MAX_RETRY_DELAY_MS } from '../../src/queue/types.js';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { queryPlan } from '../support/sqlite-plans.js';
import { tempDir } from '../support/tmp.js';
import { nextEvent } from './events.js';
import { sqliteFixture, SQLITE_TUNING as tuning } from './fixtures.js';
import { queueContract } from './queue.contract.js';

/**
 * Another process's write transaction on the same file: a connection of its own (in a thread, so
 * it can commit while this thread waits on SQLite's busy handler) that takes the write lock, writes,
 * and commits `holdMs` later, as a transaction of the service or of a CLI process would.
 */
async function peerWriteTransaction(file: string, holdMs: number): Promise<{ ended: Promise<void> }> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const db = new (require(workerData.driver))(workerData.file);
     db.pragma('busy_timeout = 5000');
     db.exec('BEGIN IMMEDIATE');
     db.prepare("UPDATE job_queues SET created_at = created_at + 1").run();
     parentPort.postMessage('locked');
     setTimeout(() => { db.exec('COMMIT'); db.close(); }, workerData.holdMs);`,
    { eval: true, workerData: { file, driver, holdMs } },
  );
  const ended = new Promise<void>((resolve, reject) => {
    worker.once('exit', () => resolve());
    worker.once('error', reject);
  });
  await new Promise((resolve) => worker.once('message', resolve));
  return { ended };
}

queueContract('embedded (sqlite)', sqliteFixture('queue'));

describe('embedded queue specifics', () => {
  it('two processes ticking the same schedule send one job per tick', async () => {
    const tmp = tempDir('cron2');
    const file = `${tmp.dir}/q.db`;
    const a = createSqliteStore({ file });
    await a.migrate();
    const b = createSqliteStore({ file });
    const qa = new SqliteQueue(a.database, tuning);
    const qb = new SqliteQueue(b.database, tuning);
    await qa.schedule('tick', '* * * * *', {});
    await Promise.all([qa.tickCron(), qb.tickCron(), qa.tickCron(), qb.tickCron()]);
    expect((await qa.counts('tick')).created).toBe(1);
    await a.close();
    await b.close();
    tmp.remove();
  });

  it("sends, cron ticks and lease checks wait for another process's write transaction instead of failing with SQLITE_BUSY", async () => {
    const tmp = tempDir('busy');
    const file = `${tmp.dir}/q.db`;
    const store = createSqliteStore({ file });
    await store.migrate();
    const queue = new SqliteQueue(store.database, tuning);
    await queue.createQueue('busy');
    // Each call starts while the other connection holds the write lock and commits after it read:
    // a deferred transaction (read first, then write) cannot be served from its stale snapshot.
    let peer = await peerWriteTransaction(file, 200);
    expect(await queue.send('busy', { n: 1 })).not.toBeNull();
    await peer.ended;
    await queue.schedule('busy-cron', '* * * * *', {});
    peer = await peerWriteTransaction(file, 200);
    await queue.tickCron();
    await peer.ended;
    expect((await queue.counts('busy-cron')).created).toBe(1);
    // A job whose lease has run out while its handler is still busy.
    let release!: () => void;
    const running = new Promise<void>(
      (started) =>
        void queue.work('busy-lease', { pollIntervalMs: 50 }, () => {
          started();
          return new Promise<void>((resolve) => (release = resolve));
        }),
    );
    await queue.send('busy-lease', {}, { expireInSeconds: 0, retryLimit: 0 });
    await running;
    const expired = nextEvent(queue, 'failed', (e) => e.name === 'busy-lease');
    peer = await peerWriteTransaction(file, 200);
    await queue.maintain();
    await peer.ended;
    expect(await expired).toMatchObject({ dead: true });
    release();
    await queue.stop({ graceMs: 1000 });
    await store.close();
    tmp.remove();
  });

  it('waits the delays of lib/backoff before each retry (exponential, full jitter), on its injected clock', async () => {
    const tmp = tempDir('backoff');
    const store = createSqliteStore({ file: `${tmp.dir}/q.db` });
    await store.migrate();
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const queue = new SqliteQueue(store.database, { ...tuning, clock, random: () => 0.5 });
    await queue.work('backoff', { pollIntervalMs: 20 }, async () => {
      throw new Error('always');
    });
    const id = (await queue.send('backoff', {}, { retryLimit: 3, retryDelay: 2, retryBackoff: true }))!;
    const delays: number[] = [];
    for (let retry = 0; retry < 3; retry++) {
      await nextEvent(queue, 'failed', (e) => e.id === id);
      const job = (await queue.getJob('backoff', id))!;
      expect(job.state).toBe('retry');
      expect(job.retryCount).toBe(retry + 1);
      delays.push(job.startAfter.getTime() - clock.nowMs());
      // The retry is due when the queue's clock says so, whatever the wall clock.
      clock.set(job.startAfter);
    }
    // 2 s, 4 s, 8 s caps, each at the middle of [0, cap] with random 0.5.
    expect(delays).toEqual([1000, 2000, 4000]);
    expect(delays).toEqual(
      [0, 1, 2].map((n) => backoffDelayMs({ baseMs: 2000, maxMs: MAX_RETRY_DELAY_MS }, n, { random: 0.5 })),
    );
    expect((await nextEvent(queue, 'failed', (e) => e.id === id)).dead).toBe(true);
    await queue.stop({ graceMs: 1000 });
    await store.close();
    tmp.remove();
  });

  it('takes jobs in the order they became ready, not the order they were sent', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const { queue, close } = await sqliteFixture('ready-order', { clock })();
    const late = (await queue.send('order', { name: 'late' }, { startAfter: 10 }))!;
    const early = (await queue.send('order', { name: 'early' }, { startAfter: 2 }))!;
    const now = (await queue.send('order', { name: 'now' }))!;
    expect(now).toBeDefined();
    clock.set(Date.UTC(2026, 0, 1, 0, 0, 11));
    const ran: string[] = [];
    const lastDone = nextEvent(queue, 'completed', (e) => e.id === late);
    await queue.work<{ name: string }>('order', { batchSize: 1, concurrency: 1, pollIntervalMs: 20 }, async (job) => {
      ran.push(job.data.name);
    });
    await lastDone;
    expect(Number(late)).toBeLessThan(Number(early));
    // Ready at 0 s, 2 s and 10 s: that order, although `late` was sent first.
    expect(ran).toEqual(['now', 'early', 'late']);
    await queue.stop({ graceMs: 1000 });
    await close();
  });

  it('a fetch reads only ready jobs: jobs waiting for their time (held, backing off) are not stepped over', async () => {
    // A store of its own (not sqliteFixture's): the plans are read on its raw connection.
    const tmp = tempDir('held-scan');
    const store = createSqliteStore({ file: `${tmp.dir}/q.db` });
    await store.migrate();
    const queue = new SqliteQueue(store.database, tuning);
    const statements = prepareStatements(store.database.raw);
    const plan = (sql: string) => queryPlan(store.database.raw, sql, { name: 'q', now: 0, n: 1, lease: 1 }).join('; ');
    // The ready jobs are one range of jobs_fetch; before, each fetch walked (name, id) and
    // filtered start_after row by row, so every held job with a lower id cost each fetch a step.
    for (const statement of [statements.anyClaimable, statements.claim, statements.claimStately]) {
      expect(plan(statement.source)).toMatch(/SEARCH j(obs)? USING INDEX jobs_fetch \(name=\? AND start_after<\?\)/);
    }
    await store.transaction(async (tx) => {
      for (let i = 0; i < 500; i++) await queue.send('q', { i }, { startAfter: 3600, tx });
    });
    const ready = (await queue.send('q', { i: 'ready' }))!;
    const ran: unknown[] = [];
    const done = nextEvent(queue, 'completed', (e) => e.id === ready);
    await queue.work('q', { batchSize: 10, pollIntervalMs: 20 }, async (job) => {
      ran.push(job.data);
    });
    await done;
    expect(ran).toEqual([{ i: 'ready' }]);
    await queue.stop({ graceMs: 1000 });
    await store.close();
    tmp.remove();
  });

  it('retry delays: exactly retryDelay without backoff, capped at an hour with it', () => {
    expect(jobRetryDelayMs({ retryDelay: 5, retryBackoff: false }, 7, 0.9)).toBe(5000);
    expect(jobRetryDelayMs({ retryDelay: 5, retryBackoff: true }, 0, 0)).toBe(0);
    expect(jobRetryDelayMs({ retryDelay: 60, retryBackoff: true }, 20, 0.999999)).toBeLessThanOrEqual(
      MAX_RETRY_DELAY_MS,
    );
    expect(jobRetryDelayMs({ retryDelay: 60, retryBackoff: true }, 20, 0.5)).toBe(MAX_RETRY_DELAY_MS / 2);
  });
});
