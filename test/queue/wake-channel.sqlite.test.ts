import { SqliteQueue } from '../../src/queue/sqlite/queue.js';
import { SharedMutex } from '../../src/store/sqlite/shared-mutex.js';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/tmp.js';
import { SQLITE_TUNING } from './fixtures.js';
import { wakeChannelContract } from './wake-channel.contract.js';

// Two connections to one file sharing the write lock, as `serve`'s two threads open it.
wakeChannelContract('embedded (sqlite)', async (wakeChannel) => {
  const tmp = tempDir('wake');
  const file = `${tmp.dir}/q.db`;
  const memory = new SharedMutex().buffer;
  const a = createSqliteStore({ file, sharedLock: { memory, side: 'receiver' } });
  await a.migrate();
  const b = createSqliteStore({ file, sharedLock: { memory, side: 'worker' } });
  const sender = new SqliteQueue(a.database, { ...SQLITE_TUNING, wakeChannel, maintain: false });
  const worker = new SqliteQueue(b.database, { ...SQLITE_TUNING, wakeChannel });
  return {
    sender,
    worker,
    close: async () => {
      await b.close();
      await a.close();
      tmp.remove();
    },
  };
});
