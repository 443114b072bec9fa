import { createPgStore } from '../../../src/store/pg/store.js';
import { createTestSchema } from '../../support/pg.js';
import { readModelsContract } from './contract.js';

readModelsContract('postgres', async () => {
  const db = await createTestSchema('read_models');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  await store.migrate();
  return { store, close: async () => (await store.close(), await db.drop()) };
});
