import { SqliteQueue } from '../../src/queue/sqlite/queue.js';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/tmp.js';
import { backlogContract } from './backlog.contract.js';

backlogContract('embedded (sqlite)', async () => {
  const tmp = tempDir('queue-backlog');
  const store = createSqliteStore({ file: `${tmp.dir}/q.db` });
  await store.migrate();
  return {
    queue: new SqliteQueue(store.database, { maintenanceIntervalMs: 100, cronIntervalMs: 100 }),
    close: async () => (await store.close(), tmp.remove()),
  };
});
