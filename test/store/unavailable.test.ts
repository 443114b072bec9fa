import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isStorageFull, isStoreUnavailable } from '../../src/store/unavailable.js';

function sqliteFull(): Error {
  const db = new Database(':memory:');
  db.pragma('max_page_count = 2');
  db.exec('CREATE TABLE filler (x BLOB)');
  try {
    db.prepare('INSERT INTO filler VALUES (?)').run(Buffer.alloc(64 * 1024));
    throw new Error('the insert did not fail');
  } catch (err) {
    return err as Error;
  } finally {
    db.close();
  }
}

/** What Postgres answers when its disk is full (SQLSTATE 53100, "could not extend file"). */
const pgDiskFull = Object.assign(new Error('could not extend file "base/16384/16385": No space left on device'), {
  code: '53100',
});

describe('store failures', () => {
  it("takes SQLite's, Postgres's and the OS's disk-full errors as a full disk the store cannot serve through", () => {
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    for (const err of [sqliteFull(), pgDiskFull, enospc, new Error('wrapped', { cause: sqliteFull() })]) {
      expect(isStorageFull(err)).toBe(true);
      expect(isStoreUnavailable(err)).toBe(true);
    }
  });

  it('does not take an unreachable database or a wrong query for a full disk', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isStorageFull(refused)).toBe(false);
    expect(isStoreUnavailable(refused)).toBe(true);
    const constraint = Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(isStorageFull(constraint)).toBe(false);
    expect(isStoreUnavailable(constraint)).toBe(false);
  });
});
