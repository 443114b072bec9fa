import { createPgStore } from '../../src/store/pg/store.js';
import { createTestSchema } from '../support/pg.js';
import { inboxRepairContract } from './inbox/repair.contract.js';
import { storeContract } from './store.contract.js';

storeContract('postgres', async () => {
  const db = await createTestSchema('store');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 12 });
  await store.migrate();
  return { store, close: async () => (await store.close(), await db.drop()) };
});

inboxRepairContract('postgres', async () => {
  const db = await createTestSchema('store');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 12 });
  await store.migrate();
  return { store, close: async () => (await store.close(), await db.drop()) };
});
