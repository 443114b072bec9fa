import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { sqliteAlerts } from '../alerts/sqlite.js';
import { sqliteAudit } from '../audit/sqlite.js';
import { sqliteErpDeliveries } from '../erp-deliveries/sqlite.js';
import { feedSignal } from '../feed/signal.js';
import { sqliteFeed } from '../feed/sqlite.js';
import { sqliteInbox } from '../inbox/sqlite.js';
import { sqliteLedger } from '../ledger/sqlite.js';
import { sqliteLimitBudgets } from '../limit-budgets/sqlite.js';
import { migrationsFolder } from '../migrations.js';
import { sqliteProcessing } from '../processing/sqlite.js';
import { sqlitePushes } from '../pushes/sqlite.js';
import { lazyPushesStatements, type PushesStatements } from '../pushes/sqlite-statements.js';
import { sqliteReadModels } from '../read-models/sqlite.js';
import { sqliteReconciliation } from '../reconciliation/sqlite.js';
import { sqliteRetention } from '../retention/sqlite.js';
import type { Repos, Store, StoreTx } from '../types.js';
import { openSqlite, type SqliteDatabase, type SqliteOpenOptions, type SqliteOrm } from './database.js';
import { type Run, runNow } from './runner.js';

/** `inTx`: bound to a transaction (statements run directly, one by one). */
function repos(
  orm: SqliteOrm,
  run: Run,
  statements: () => PushesStatements,
  raw: SqliteDatabase['raw'],
  retention: Repos['retention'],
  inTx: boolean,
): Repos {
  return {
    retention,
    inbox: sqliteInbox(orm, run, raw),
    processing: sqliteProcessing(raw, run),
    pushes: sqlitePushes(orm, run, statements, inTx ? undefined : raw),
    feed: sqliteFeed(orm, run),
    ledger: sqliteLedger(orm, run),
    reconciliation: sqliteReconciliation(orm, run, raw),
    readModels: sqliteReadModels(orm, run),
    erpDeliveries: sqliteErpDeliveries(orm, run, raw),
    audit: sqliteAudit(orm, run),
  };
}

export interface SqliteStore extends Store {
  readonly dialect: 'sqlite';
  /** The shared connection, for the embedded queue. */
  readonly database: SqliteDatabase;
}

export function createSqliteStore(options: { file: string } & SqliteOpenOptions): SqliteStore {
  const { file, ...open } = options;
  const database = openSqlite(file, open);
  const { raw, orm, lock } = database;
  // Repos bound to a transaction run their statements directly: the lock is already held.
  const statements = lazyPushesStatements(orm);
  const retention = sqliteRetention(database);
  const txRepos = repos(orm, runNow, statements, raw, retention, true);
  const signal = feedSignal();
  const direct = repos(orm, (fn) => lock.run(fn), statements, raw, retention, false);

  return {
    dialect: 'sqlite',
    database,
    ...direct,
    feed: signal.watch(direct.feed, signal.emit),
    processing: signal.watchProcessing(direct.processing, signal.emit),
    onFeedAppended: signal.subscribe,
    alerts: sqliteAlerts(raw, (fn) => lock.exclusive(fn)),
    limitBudgets: sqliteLimitBudgets(raw, (fn) => lock.exclusive(fn)),

    transaction: async (fn) => {
      const appended = new Set<string>();
      const hooks: (() => void)[] = [];
      const result = await lock.exclusive(async () => {
        const tx: StoreTx = {
          ...txRepos,
          feed: signal.watch(txRepos.feed, (connection) => appended.add(connection)),
          processing: signal.watchProcessing(txRepos.processing, (connection) => appended.add(connection)),
          handle: { dialect: 'sqlite', db: raw },
          afterCommit: (h) => hooks.push(h),
        };
        raw.exec('BEGIN IMMEDIATE');
        let result;
        try {
          result = await fn(tx);
          raw.exec('COMMIT');
        } catch (err) {
          if (raw.inTransaction) raw.exec('ROLLBACK');
          throw err;
        }
        return result;
      });
      // After the commit, outside the lock's async context: work a hook or listener starts (the ERP
      // push's loop) would otherwise inherit it and find every transaction of its own refused as nested.
      for (const connection of appended) signal.emit(connection);
      for (const hook of hooks) hook();
      return result;
    },

    migrate: () => lock.run(() => migrate(orm, { migrationsFolder: migrationsFolder.sqlite })),

    ping: () =>
      lock.run(() => {
        raw.prepare('SELECT 1').get();
      }),

    close: async () => {
      await lock.exclusive(() => database.close());
    },
  };
}
