import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { SqliteQueue } from '../../src/queue/sqlite/queue.js';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';
import { SQLITE_TUNING, sqliteFixture } from './fixtures.js';
import { storeFaultContract } from './store-fault.contract.js';

/** SQLite's own "database or disk is full": a database held to a few pages by `max_page_count`. */
async function diskFull(): Promise<Error> {
  const db = new Database(':memory:');
  db.pragma('max_page_count = 2');
  db.exec('CREATE TABLE filler (x BLOB)');
  try {
    db.prepare('INSERT INTO filler VALUES (?)').run(Buffer.alloc(64 * 1024));
  } catch (err) {
    return err as Error;
  } finally {
    db.close();
  }
  throw new Error('the insert did not fail');
}

const clock = new ManualClock();
storeFaultContract('embedded (sqlite)', sqliteFixture('store-fault', { clock }), {
  fault: diskFull,
  tick: () => clock.advance(60_000),
});

describe('embedded queue on a database that fills up', () => {
  it('keeps the job of a handler that hit the full disk, and runs it once space is back', async () => {
    const tmp = tempDir('queue-full');
    const store = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
    await store.migrate();
    const raw = store.database.raw;
    raw.exec('CREATE TABLE filler (x BLOB)');
    const queueClock = new ManualClock();
    const queue = new SqliteQueue(store.database, { ...SQLITE_TUNING, clock: queueClock });
    await queue.start();
    try {
      const runs: number[] = [];
      await queue.work('fill', { pollIntervalMs: 50 }, async (job) => {
        runs.push(job.retryCount);
        // The handler's own write needs new pages, which the full database refuses.
        await store.database.lock.run(() => raw.prepare('INSERT INTO filler VALUES (?)').run(Buffer.alloc(256 * 1024)));
      });
      const pages = Number(raw.pragma('page_count', { simple: true }));
      raw.pragma(`max_page_count = ${pages + 2}`);
      const id = (await queue.send('fill', {}, { retryLimit: 0 }))!;
      const waiting = await until(async () => {
        const job = await queue.getJob('fill', id);
        return job?.state === 'retry' ? job : undefined;
      });
      expect(runs).toEqual([0]);
      expect(waiting.output).toMatchObject({ message: 'database or disk is full' });
      expect(waiting.retryCount).toBe(0);
      // Space returns: the job runs when its delay is over, on the queue's own clock.
      raw.pragma('max_page_count = 1073741823');
      queueClock.advance(60_000);
      await until(async () => (await queue.getJob('fill', id))?.state === 'completed', { message: 'completed' });
      expect(runs).toEqual([0, 0]);
    } finally {
      await queue.stop({ graceMs: 1000 });
      await store.close();
      tmp.remove();
    }
  });

  it('puts back in line, in the living process, a job whose lease ran out (the injected clock)', async () => {
    const tmp = tempDir('queue-lease-clock');
    const file = `${tmp.dir}/wms-sync.db`;
    const store = createSqliteStore({ file });
    await store.migrate();
    const leaseClock = new ManualClock();
    const options = { ...SQLITE_TUNING, clock: leaseClock, leaseSeconds: 10 };
    const queue = new SqliteQueue(store.database, options);
    await queue.start();
    const peerStore = createSqliteStore({ file });
    const peer = new SqliteQueue(peerStore.database, options);
    try {
      let claimed!: () => void;
      const running = new Promise<void>((r) => (claimed = r));
      await peer.work('abandoned', { pollIntervalMs: 50 }, () => {
        claimed();
        return new Promise<void>(() => undefined);
      });
      const id = (await queue.send('abandoned', {}, { retryLimit: 1 }))!;
      await running;
      // The peer's worker dies: nobody renews the lease any more.
      await peer.stop({ graceMs: 0 });
      const retries: number[] = [];
      await queue.work('abandoned', { pollIntervalMs: 50 }, async (job) => {
        retries.push(job.retryCount);
      });
      expect((await queue.getJob('abandoned', id))?.state).toBe('active');
      leaseClock.advance(11_000);
      await until(async () => (await queue.getJob('abandoned', id))?.state === 'completed', {
        message: 'the sweep put the job back and it ran',
      });
      expect(retries).toEqual([1]);
    } finally {
      await queue.stop({ graceMs: 1000 });
      await peerStore.close();
      await store.close();
      tmp.remove();
    }
  });
});
