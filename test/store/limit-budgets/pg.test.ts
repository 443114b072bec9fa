import { createPgStore } from '../../../src/store/pg/store.js';
import { createTestSchema } from '../../support/pg.js';
import { limitBudgetContract } from './contract.js';

limitBudgetContract('postgres', async () => {
  const db = await createTestSchema('limit_budgets');
  const a = createPgStore({ url: db.url, schema: db.schema, poolSize: 2 });
  await a.migrate();
  const b = createPgStore({ url: db.url, schema: db.schema, poolSize: 2 });
  await b.migrate();
  return { a, b, close: async () => (await a.close(), await b.close(), await db.drop()) };
});
