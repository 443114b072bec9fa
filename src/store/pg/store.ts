import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { pgAlerts } from '../alerts/pg.js';
import { pgAudit } from '../audit/pg.js';
import { pgErpDeliveries } from '../erp-deliveries/pg.js';
import { pgFeed } from '../feed/pg.js';
import { feedSignal } from '../feed/signal.js';
import { pgInbox } from '../inbox/pg.js';
import { pgLedger } from '../ledger/pg.js';
import { pgLimitBudgets } from '../limit-budgets/pg.js';
import { migrationsFolder } from '../migrations.js';
import { pgProcessing } from '../processing/pg.js';
import { pgPushes } from '../pushes/pg.js';
import { pgReadModels } from '../read-models/pg.js';
import { pgReconciliation } from '../reconciliation/pg.js';
import { pgRetention } from '../retention/pg.js';
import type { Repos, Store, StoreTx } from '../types.js';
import { openPg, type PgDatabase, type PgOptions, type PgOrm } from './database.js';

/** Held while migrating so that several processes booting at once apply each migration once. */
const MIGRATION_LOCK = 0x77_6d_73_00;

export interface PgStore extends Store {
  readonly dialect: 'postgres';
  readonly database: PgDatabase;
}

export function createPgStore(options: PgOptions): PgStore {
  const database = openPg(options);
  const { pool } = database;

  async function inTransaction<T>(fn: (client: import('pg').PoolClient, orm: PgOrm) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client, database.ormFor(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  const withTx = <T>(fn: (orm: PgOrm) => Promise<T>) => inTransaction((_client, orm) => fn(orm));

  const repos = (orm: PgOrm, inTx: boolean): Repos => ({
    inbox: pgInbox(orm),
    processing: pgProcessing(orm),
    pushes: pgPushes(orm, { batched: !inTx }),
    feed: pgFeed(orm, inTx, withTx),
    ledger: pgLedger(orm),
    reconciliation: pgReconciliation(orm),
    // On the pool, even from a transaction: pruning runs in chunks of its own.
    retention: pgRetention(pool, (fn) => inTransaction((client) => fn(client))),
    readModels: pgReadModels(orm),
    erpDeliveries: pgErpDeliveries(orm, inTx, withTx),
    audit: pgAudit(orm),
  });
  const signal = feedSignal();
  const direct = repos(database.orm, false);

  return {
    dialect: 'postgres',
    database,
    ...direct,
    feed: signal.watch(direct.feed, signal.emit),
    processing: signal.watchProcessing(direct.processing, signal.emit),
    onFeedAppended: signal.subscribe,
    alerts: pgAlerts(inTransaction),
    limitBudgets: pgLimitBudgets(inTransaction),

    transaction: async (fn) => {
      const hooks: (() => void)[] = [];
      const appended = new Set<string>();
      const result = await inTransaction((client, orm) => {
        const txRepos = repos(orm, true);
        const tx: StoreTx = {
          ...txRepos,
          feed: signal.watch(txRepos.feed, (connection) => appended.add(connection)),
          processing: signal.watchProcessing(txRepos.processing, (connection) => appended.add(connection)),
          handle: { dialect: 'postgres', client },
          afterCommit: (h) => hooks.push(h),
        };
        return fn(tx);
      });
      for (const connection of appended) signal.emit(connection);
      for (const hook of hooks) hook();
      return result;
    },

    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        try {
          await migrate(database.ormFor(client), {
            migrationsFolder: migrationsFolder.postgres,
            migrationsSchema: database.schema,
          });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
        }
      } finally {
        client.release();
      }
    },

    ping: async () => {
      await pool.query('SELECT 1');
    },

    close: async () => {
      await pool.end();
    },
  };
}
