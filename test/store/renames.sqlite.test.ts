import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/tmp.js';
import { renamesSuite } from './renames.suite.js';

renamesSuite('sqlite', async () => {
  const tmp = tempDir('renames-db');
  const store = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
  return { store, close: async () => (await store.close(), tmp.remove()) };
});
