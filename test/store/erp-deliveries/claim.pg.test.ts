import { createPgStore } from '../../../src/store/pg/store.js';
import { createTestSchema } from '../../support/pg.js';
import { deliveryClaimContract } from './claim.contract.js';

deliveryClaimContract('postgres', async () => {
  const db = await createTestSchema('delivery_claim');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  await store.migrate();
  return {
    store,
    close: async () => (await store.close(), await db.drop()),
    clearMarks: async (connection) =>
      void (await store.database.pool.query(
        `UPDATE "${db.schema}".erp_deliveries SET head = false WHERE connection = $1`,
        [connection],
      )),
  };
});
