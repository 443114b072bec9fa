import type { SqliteDatabase } from '../sqlite/database.js';
import type { LimitBudgetRepo } from './contract.js';

type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * The shared limit on SQLite: the same exchange under the store's write lock (`BEGIN IMMEDIATE`),
 * for processes sharing one database file. A single process keeps its limit in memory and never
 * calls this; it exists so that both stores honour one port.
 */
export function sqliteLimitBudgets(raw: SqliteDatabase['raw'], exclusive: Exclusive): LimitBudgetRepo {
  return {
    exchange: (input) =>
      exclusive(async () => {
        raw.exec('BEGIN IMMEDIATE');
        try {
          const now = input.now.getTime();
          raw
            .prepare(
              `INSERT INTO wms_limits (connection, state, updated_at) VALUES (?, 'null', ?) ON CONFLICT (connection) DO NOTHING`,
            )
            .run(input.connection, now);
          const row = raw.prepare('SELECT state FROM wms_limits WHERE connection = ?').get(input.connection) as {
            state: string;
          };
          const state = input.update(JSON.parse(row.state) as Parameters<typeof input.update>[0]);
          raw
            .prepare('UPDATE wms_limits SET state = ?, updated_at = ? WHERE connection = ?')
            .run(JSON.stringify(state), now, input.connection);
          raw
            .prepare('DELETE FROM wms_limit_holders WHERE connection = ? AND expires_at < ? AND holder <> ?')
            .run(input.connection, now, input.holder);
          raw
            .prepare(
              `INSERT INTO wms_limit_holders (connection, holder, demand, expires_at) VALUES (?, ?, ?, ?)
               ON CONFLICT (connection, holder) DO UPDATE SET demand = excluded.demand, expires_at = excluded.expires_at`,
            )
            .run(input.connection, input.holder, input.demand, now + input.leaseMs);
          const sums = raw
            .prepare(
              'SELECT coalesce(sum(demand), 0) AS total, count(*) AS holders FROM wms_limit_holders WHERE connection = ?',
            )
            .get(input.connection) as {
            total: number;
            holders: number;
          };
          raw.exec('COMMIT');
          return { state, totalDemand: sums.total, holders: sums.holders };
        } catch (err) {
          if (raw.inTransaction) raw.exec('ROLLBACK');
          throw err;
        }
      }),
    leave: (connection, holder) =>
      exclusive(async () => {
        raw.prepare('DELETE FROM wms_limit_holders WHERE connection = ? AND holder = ?').run(connection, holder);
      }),
  };
}
