import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';
import { auditContract } from './audit/contract.js';
import { feedContract } from './feed/contract.js';
import { inboxContract } from './inbox/contract.js';
import { inboxRepairContract } from './inbox/repair.contract.js';
import { ledgerContract } from './ledger/contract.js';
import { pushesContract } from './pushes/contract.js';
import { storeContract } from './store.contract.js';

async function open() {
  const tmp = tempDir('store');
  const store = createSqliteStore({ file: `${tmp.dir}/wms-sync.db` });
  await store.migrate();
  return { store, close: async () => (await store.close(), tmp.remove()) };
}

storeContract('sqlite', open);
inboxContract('sqlite', open);
inboxRepairContract('sqlite', open);
pushesContract('sqlite', open);
feedContract('sqlite', open);
ledgerContract('sqlite', open);
auditContract('sqlite', open);

describe('sqlite store specifics', () => {
  it('uses WAL with synchronous=NORMAL', async () => {
    const tmp = tempDir('pragma');
    const store = createSqliteStore({ file: `${tmp.dir}/x.db` });
    expect(store.database.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.database.raw.pragma('synchronous', { simple: true })).toBe(1);
    await store.close();
    tmp.remove();
  });

  it('checkpoints the WAL from its own thread: the connection serving requests never does', async () => {
    const tmp = tempDir('checkpoint');
    const file = `${tmp.dir}/x.db`;
    const store = createSqliteStore({ file });
    await store.migrate();
    expect(store.database.raw.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = statSync(file).size;
    const payload = 'x'.repeat(1000);
    for (let i = 0; i < 20; i++) {
      await store.transaction(async (tx) => {
        await tx.inbox.recordMany(
          Array.from({ length: 100 }, (_, j) => ({
            connection: 'c',
            kind: 'k',
            dedupeKey: `${i}-${j}`,
            payload,
            at: new Date(),
          })),
        );
      });
    }
    // Only a checkpoint copies pages into the database file.
    await until(() => statSync(file).size > before + 1_000_000, {
      message: 'WAL pages checkpointed into the database file',
    });
    await store.close();
    const reopened = createSqliteStore({ file });
    expect((await reopened.inbox.countByStatus()).received).toBe(2000);
    await reopened.close();
    tmp.remove();
  });

  it('a script that only opens and closes a store finishes its close (the checkpoint thread waits for it)', () => {
    const tmp = tempDir('close-exit');
    const store = fileURLToPath(new URL('../../src/store/sqlite/store.ts', import.meta.url));
    const script = `import { createSqliteStore } from ${JSON.stringify(store)};
      const s = createSqliteStore({ file: ${JSON.stringify(`${tmp.dir}/x.db`)} });
      await s.migrate();
      await s.close();
      console.log('closed');`;
    expect(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }),
    ).toContain('closed');
    tmp.remove();
  });

  it('fsyncs every commit with synchronous=FULL when asked (SQLITE_SYNCHRONOUS=full)', async () => {
    const tmp = tempDir('pragma-full');
    const store = createSqliteStore({ file: `${tmp.dir}/x.db`, synchronous: 'full' });
    expect(store.database.raw.pragma('synchronous', { simple: true })).toBe(2);
    await store.close();
    tmp.remove();
  });

  it('fails, instead of hanging, a store call made inside its own transaction', async () => {
    const tmp = tempDir('reentry');
    const store = createSqliteStore({ file: `${tmp.dir}/x.db`, lockWaitLimitMs: 100 });
    await store.migrate();
    await expect(
      store.transaction(async () => {
        await store.inbox.get(1);
      }),
    ).rejects.toThrow(/use the tx object/);
    await store.ping();
    await store.close();
    tmp.remove();
  });

  it('keeps data across a reopen of the file', async () => {
    const tmp = tempDir('reopen');
    const file = `${tmp.dir}/x.db`;
    const a = createSqliteStore({ file });
    await a.migrate();
    const { event } = await a.inbox.record({
      connection: 'c',
      kind: 'k',
      dedupeKey: 'd',
      payload: '{}',
      at: new Date(),
    });
    await a.close();
    const b = createSqliteStore({ file });
    await b.migrate();
    expect((await b.inbox.get(event.id))?.dedupeKey).toBe('d');
    await b.close();
    tmp.remove();
  });
});
