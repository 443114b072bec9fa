import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '../sqlite/database.js';
import type { RetentionRepo } from './contract.js';
import { type RetentionDb, retentionRepo } from './sql.js';

const param = (v: unknown) => (v instanceof Date ? v.getTime() : v);

/** Retention on SQLite: each chunk is one statement under the store's lock; roll-ups run in exclusive transactions. */
export function sqliteRetention(database: SqliteDatabase): RetentionRepo {
  const { raw, lock } = database;
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = raw.prepare(sql)));
    return s;
  };
  const direct: Omit<RetentionDb, 'transaction'> = {
    all: <T>(sql: string, params: unknown[]) => Promise.resolve(prepared(sql).all(...params.map(param)) as T[]),
    run: (sql, params) => Promise.resolve(prepared(sql).run(...params.map(param)).changes),
    date: (v) => new Date(Number(v)),
  };
  const inTx: RetentionDb = { ...direct, transaction: (fn) => fn(inTx) };
  return retentionRepo({
    all: (sql, params) => lock.run(() => prepared(sql).all(...params.map(param))) as never,
    run: (sql, params) => lock.run(() => prepared(sql).run(...params.map(param)).changes),
    date: direct.date,
    transaction: (fn) =>
      lock.exclusive(async () => {
        raw.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(inTx);
          raw.exec('COMMIT');
          return result;
        } catch (err) {
          if (raw.inTransaction) raw.exec('ROLLBACK');
          throw err;
        }
      }),
  });
}
