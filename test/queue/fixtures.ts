import { PgBossQueue, type PgBossQueueOptions } from '../../src/queue/pgboss.js';
import { SqliteQueue, type SqliteQueueOptions } from '../../src/queue/sqlite/queue.js';
import { createPgStore } from '../../src/store/pg/store.js';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { createTestSchema } from '../support/pg.js';
import { tempDir } from '../support/tmp.js';
import type { QueueFixture } from './queue.contract.js';

/** Fast timers for tests; the lease stays the default unless a suite asks for another. */
export const SQLITE_TUNING: SqliteQueueOptions = { maintenanceIntervalMs: 100, cronIntervalMs: 100 };
export const PGBOSS_TUNING: Omit<PgBossQueueOptions, 'pool' | 'schema'> = {
  maintenanceIntervalSeconds: 1,
  cronWorkerIntervalSeconds: 1,
  cronMonitorIntervalSeconds: 1,
};

/** The embedded queue on a SQLite file of its own; peers open the same file, as other processes would. */
export function sqliteFixture(label: string, tuning: SqliteQueueOptions = {}): () => Promise<QueueFixture> {
  return async () => {
    const tmp = tempDir(label);
    const file = `${tmp.dir}/wms-sync.db`;
    const store = createSqliteStore({ file });
    await store.migrate();
    const options = { ...SQLITE_TUNING, ...tuning };
    return {
      store,
      queue: new SqliteQueue(store.database, options),
      openPeer: async () => {
        const peerStore = createSqliteStore({ file });
        return { queue: new SqliteQueue(peerStore.database, options), close: () => peerStore.close() };
      },
      close: async () => {
        await store.close();
        tmp.remove();
      },
    };
  };
}

/** pg-boss on a Postgres schema of its own; peers use pools of their own, as other processes would. */
export function pgFixture(
  label: string,
  tuning: Omit<PgBossQueueOptions, 'pool' | 'schema'> = {},
): () => Promise<QueueFixture> {
  return async () => {
    const db = await createTestSchema(label);
    const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 10 });
    await store.migrate();
    const bossSchema = `${db.schema}_boss`;
    const options = { ...PGBOSS_TUNING, ...tuning };
    return {
      store,
      queue: new PgBossQueue({ pool: store.database.pool, schema: bossSchema, ...options }),
      openPeer: async () => {
        const peerStore = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
        return {
          queue: new PgBossQueue({ pool: peerStore.database.pool, schema: bossSchema, ...options }),
          close: () => peerStore.close(),
        };
      },
      close: async () => {
        await store.close();
        await db.drop();
      },
    };
  };
}
