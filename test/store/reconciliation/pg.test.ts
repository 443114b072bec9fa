import { createPgStore } from '../../../src/store/pg/store.js';
import { createTestSchema } from '../../support/pg.js';
import { reconciliationContract } from './contract.js';

reconciliationContract('postgres', async () => {
  const db = await createTestSchema('reconciliation_store');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 12 });
  await store.migrate();
  return { store, close: async () => (await store.close(), await db.drop()) };
});
