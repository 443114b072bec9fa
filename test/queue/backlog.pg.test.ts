import { PgBossQueue } from '../../src/queue/pgboss.js';
import { createPgStore } from '../../src/store/pg/store.js';
import { createTestSchema } from '../support/pg.js';
import { backlogContract } from './backlog.contract.js';

backlogContract('pg-boss (postgres)', async () => {
  const db = await createTestSchema('queue_backlog');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  await store.migrate();
  const queue = new PgBossQueue({
    pool: store.database.pool,
    schema: `${db.schema}_boss`,
    maintenanceIntervalSeconds: 1,
    cronWorkerIntervalSeconds: 1,
    cronMonitorIntervalSeconds: 1,
  });
  return { queue, close: async () => (await store.close(), await db.drop()) };
});
