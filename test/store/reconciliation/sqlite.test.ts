import { createSqliteStore } from '../../../src/store/sqlite/store.js';
import { tempDir } from '../../support/tmp.js';
import { reconciliationContract } from './contract.js';

reconciliationContract('sqlite', async () => {
  const tmp = tempDir('reconciliation-store');
  const store = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
  await store.migrate();
  return { store, close: async () => (await store.close(), tmp.remove()) };
});
