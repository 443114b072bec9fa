import { describe, expect, it } from 'vitest';
import { SqliteQueue } from '../../src/queue/sqlite/queue.js';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/tmp.js';
import { queueContract } from './queue.contract.js';

const tuning = { maintenanceIntervalMs: 100, cronIntervalMs: 100 };

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
});
