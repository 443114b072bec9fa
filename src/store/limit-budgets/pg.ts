import type pg from 'pg';
import type { LimitBudgetRepo } from './contract.js';

/**
 * The shared limit on Postgres: `SELECT … FOR UPDATE` on the connection's row serialises the
 * processes' exchanges (a few per second each), so every sample is applied once, in order.
 */
export function pgLimitBudgets(
  inTransaction: <T>(fn: (client: pg.PoolClient) => Promise<T>) => Promise<T>,
): LimitBudgetRepo {
  return {
    exchange: (input) =>
      inTransaction(async (client) => {
        await client.query(
          `INSERT INTO wms_limits (connection, state, updated_at) VALUES ($1, 'null', $2) ON CONFLICT (connection) DO NOTHING`,
          [input.connection, input.now],
        );
        const { rows } = await client.query<{ state: string }>(
          'SELECT state FROM wms_limits WHERE connection = $1 FOR UPDATE',
          [input.connection],
        );
        const state = input.update(JSON.parse(rows[0]!.state) as Parameters<typeof input.update>[0]);
        const expires = new Date(input.now.getTime() + input.leaseMs);
        const { rows: sums } = await client.query<{ total: string; holders: string }>(
          `WITH upd AS (UPDATE wms_limits SET state = $2, updated_at = $3 WHERE connection = $1),
                gone AS (DELETE FROM wms_limit_holders WHERE connection = $1 AND expires_at < $3 AND holder <> $4),
                mine AS (INSERT INTO wms_limit_holders (connection, holder, demand, expires_at) VALUES ($1, $4, $5, $6)
                         ON CONFLICT (connection, holder) DO UPDATE SET demand = EXCLUDED.demand, expires_at = EXCLUDED.expires_at)
           SELECT coalesce(sum(demand), 0) + $5 AS total, count(*) + 1 AS holders
             FROM wms_limit_holders WHERE connection = $1 AND holder <> $4 AND expires_at >= $3`,
          [input.connection, JSON.stringify(state), input.now, input.holder, input.demand, expires],
        );
        return { state, totalDemand: Number(sums[0]!.total), holders: Number(sums[0]!.holders) };
      }),
    leave: async (connection, holder) => {
      await inTransaction((client) =>
        client.query('DELETE FROM wms_limit_holders WHERE connection = $1 AND holder = $2', [connection, holder]),
      );
    },
  };
}
