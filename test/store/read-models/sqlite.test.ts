import { createSqliteStore } from '../../../src/store/sqlite/store.js';
import { tempDir } from '../../support/tmp.js';
import { readModelsContract } from './contract.js';

readModelsContract('sqlite', async () => {
  const tmp = tempDir('read-models');
  const store = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
  await store.migrate();
  return { store, close: async () => (await store.close(), tmp.remove()) };
});
