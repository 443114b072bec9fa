import { PgBossQueue } from '../../src/queue/pgboss.js';
import { createPgStore } from '../../src/store/pg/store.js';
import { createTestSchema } from '../support/pg.js';
import { PGBOSS_TUNING } from './fixtures.js';
import { wakeChannelContract } from './wake-channel.contract.js';

wakeChannelContract('pg-boss (postgres)', async (wakeChannel) => {
  const db = await createTestSchema('wake');
  const a = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  await a.migrate();
  const b = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  const schema = `${db.schema}_boss`;
  const sender = new PgBossQueue({ pool: a.database.pool, schema, ...PGBOSS_TUNING, wakeChannel });
  const worker = new PgBossQueue({ pool: b.database.pool, schema, ...PGBOSS_TUNING, wakeChannel });
  return {
    sender,
    worker,
    close: async () => {
      await b.close();
      await a.close();
      await db.drop();
    },
  };
});
