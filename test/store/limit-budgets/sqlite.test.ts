import { createSqliteStore } from '../../../src/store/sqlite/store.js';
import { tempDir } from '../../support/tmp.js';
import { limitBudgetContract } from './contract.js';

limitBudgetContract('sqlite', async () => {
  const tmp = tempDir('limit-budgets');
  const a = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
  await a.migrate();
  const b = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
  await b.migrate();
  return { a, b, close: async () => (await a.close(), await b.close(), tmp.remove()) };
});
