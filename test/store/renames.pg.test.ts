import { createPgStore } from '../../src/store/pg/store.js';
import { createTestSchema } from '../support/pg.js';
import { renamesSuite } from './renames.suite.js';

renamesSuite('postgres', async () => {
  const db = await createTestSchema('renames');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
  return { store, close: async () => (await store.close(), await db.drop()) };
});
