import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../src/store/sqlite/database.js';
import { SharedMutex } from '../../src/store/sqlite/shared-mutex.js';
import { tempDir } from '../support/tmp.js';

/**
 * `serve` on SQLite opens its file twice, once per thread (the receiver's and the worker's), and
 * the two connections share one write lock (`sharedLock`). Here both connections live in the
 * test's thread, which interleaves them just as deterministically at each await. SQLite's own busy
 * handler is turned off (`busy_timeout = 0`): a connection that met the other's write lock would
 * fail at once with SQLITE_BUSY instead of waiting in it.
 */
describe('two connections to one SQLite file sharing the write lock', () => {
  const opened: SqliteDatabase[] = [];
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close();
    for (const c of cleanups.splice(0)) c();
  });

  function pair(shared: boolean): [SqliteDatabase, SqliteDatabase] {
    const tmp = tempDir('shared-lock');
    cleanups.push(tmp.remove);
    const file = `${tmp.dir}/db.sqlite`;
    const memory = shared ? new SharedMutex().buffer : undefined;
    const a = openSqlite(file, { sharedLock: memory && { memory, side: 'receiver' } });
    const b = openSqlite(file, { sharedLock: memory && { memory, side: 'worker' } });
    opened.push(a, b);
    a.raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT NOT NULL, step INTEGER NOT NULL)');
    for (const db of [a, b]) db.raw.pragma('busy_timeout = 0');
    return [a, b];
  }

  /** A transaction that holds the write lock across awaits, as the store's transactions do. */
  const transaction = (db: SqliteDatabase, who: string, steps: number) =>
    db.lock.exclusive(async () => {
      db.raw.exec('BEGIN IMMEDIATE');
      try {
        for (let step = 0; step < steps; step++) {
          db.raw.prepare('INSERT INTO t (who, step) VALUES (?, ?)').run(who, step);
          await new Promise((resolve) => setImmediate(resolve));
        }
        db.raw.exec('COMMIT');
      } catch (err) {
        if (db.raw.inTransaction) db.raw.exec('ROLLBACK');
        throw err;
      }
    });

  it('their transactions take turns: none meets the other connection busy, every row lands, none interleaved', async () => {
    const [a, b] = pair(true);
    await Promise.all(Array.from({ length: 10 }, (_, i) => transaction(i % 2 === 0 ? a : b, `tx${i}`, 5)));
    const rows = a.raw.prepare('SELECT who, step FROM t ORDER BY id').all() as { who: string; step: number }[];
    expect(rows).toHaveLength(50);
    // Each transaction's five rows are consecutive: no other write came in between.
    for (let i = 0; i < rows.length; i += 5) expect(new Set(rows.slice(i, i + 5).map((r) => r.who)).size).toBe(1);
  });

  it("a plain statement on one connection waits for the other's open transaction instead of failing", async () => {
    const [a, b] = pair(true);
    const open = transaction(a, 'tx', 3);
    // One turn of the event loop: a's transaction has begun and waits at its first await.
    await new Promise((resolve) => setImmediate(resolve));
    expect(a.raw.inTransaction).toBe(true);
    const plain = b.lock.run(() => b.raw.prepare('INSERT INTO t (who, step) VALUES (?, ?)').run('plain', 0));
    await Promise.all([open, plain]);
    const order = (a.raw.prepare('SELECT who FROM t ORDER BY id').all() as { who: string }[]).map((r) => r.who);
    expect(order).toEqual(['tx', 'tx', 'tx', 'plain']);
  });

  it('without the shared lock the same transactions meet SQLITE_BUSY (the tests above can fail)', async () => {
    const [a, b] = pair(false);
    const results = await Promise.allSettled([transaction(a, 'a', 5), transaction(b, 'b', 5)]);
    expect(results.map((r) => r.status)).toContain('rejected');
    expect(String((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason)).toMatch(
      /locked|busy/i,
    );
  });
});
