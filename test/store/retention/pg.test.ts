import { createPgStore } from '../../../src/store/pg/store.js';
import { createTestSchema } from '../../support/pg.js';
import { retentionContract } from './contract.js';

retentionContract('postgres', async () => {
  const db = await createTestSchema('retention_store');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  await store.migrate();
  return { store, close: async () => (await store.close(), await db.drop()) };
});
