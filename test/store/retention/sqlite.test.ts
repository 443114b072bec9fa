import { createSqliteStore } from '../../../src/store/sqlite/store.js';
import { tempDir } from '../../support/tmp.js';
import { retentionContract } from './contract.js';

retentionContract('sqlite', async () => {
  const tmp = tempDir('retention-store');
  const store = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
  await store.migrate();
  return { store, close: async () => (await store.close(), tmp.remove()) };
});
