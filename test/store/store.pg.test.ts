import { createPgStore } from '../../src/store/pg/store.js';
import { createTestSchema } from '../support/pg.js';
import { auditContract } from './audit/contract.js';
import { feedContract } from './feed/contract.js';
import { inboxContract } from './inbox/contract.js';
import { inboxRepairContract } from './inbox/repair.contract.js';
import { ledgerContract } from './ledger/contract.js';
import { pushesContract } from './pushes/contract.js';
import { storeContract } from './store.contract.js';

async function open() {
  const db = await createTestSchema('store');
  const store = createPgStore({ url: db.url, schema: db.schema, poolSize: 12 });
  await store.migrate();
  return { store, close: async () => (await store.close(), await db.drop()) };
}

storeContract('postgres', open);
inboxContract('postgres', open);
inboxRepairContract('postgres', open);
pushesContract('postgres', open);
feedContract('postgres', open);
ledgerContract('postgres', open);
auditContract('postgres', open);
