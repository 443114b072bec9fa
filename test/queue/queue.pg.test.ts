import { PgBossQueue } from '../../src/queue/pgboss.js';
import { createPgStore } from '../../src/store/pg/store.js';
import { createTestSchema } from '../support/pg.js';
import { queueContract } from './queue.contract.js';

const tuning = { maintenanceIntervalSeconds: 1, cronWorkerIntervalSeconds: 1, cronMonitorIntervalSeconds: 1 };

queueContract('pg-boss (postgres)', async () => {
  const db = await createTestSchema('queue');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 10 });
  await store.migrate();
  const bossSchema = `${db.schema}_boss`;
  return {
    store,
    queue: new PgBossQueue({ pool: store.database.pool, schema: bossSchema, ...tuning }),
    openPeer: async () => {
      const peerStore = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
      return { queue: new PgBossQueue({ pool: peerStore.database.pool, schema: bossSchema, ...tuning }), close: () => peerStore.close() };
    },
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
});
