import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SqliteQueue } from '../../src/queue/sqlite/queue.js';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/tmp.js';
import { nextEvent } from './events.js';
import { queueContract } from './queue.contract.js';

const tuning = { maintenanceIntervalMs: 100, cronIntervalMs: 100 };

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

queueContract('embedded (sqlite)', async () => {
  const tmp = tempDir('queue');
  const file = `${tmp.dir}/wms-sync.db`;
  const store = createSqliteStore({ file });
  await store.migrate();
  return {
    store,
    queue: new SqliteQueue(store.database, tuning),
    openPeer: async () => {
      const peerStore = createSqliteStore({ file });
      return { queue: new SqliteQueue(peerStore.database, tuning), close: () => peerStore.close() };
    },
    close: async () => {
      await store.close();
      tmp.remove();
    },
  };
});

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
    const running = new Promise<void>((started) =>
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
});
