import type pg from 'pg';
import type { RetentionRepo } from './contract.js';
import { type RetentionDb, retentionRepo } from './sql.js';

/** `?` placeholders numbered for Postgres (the shared statements hold no `?` in literals). */
const numbered = (sql: string) => {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
};

function over(client: pg.Pool | pg.PoolClient, transaction: RetentionDb['transaction']): RetentionDb {
  return {
    all: async <T>(sql: string, params: unknown[]) => (await client.query(numbered(sql), params)).rows as T[],
    run: async (sql, params) => (await client.query(numbered(sql), params)).rowCount ?? 0,
    date: (v) => (v instanceof Date ? v : new Date(v as string)),
    transaction,
  };
}

/**
 * Retention on Postgres: chunks on the pool; roll-ups in `inTransaction` (the store's: one pooled
 * client between BEGIN and COMMIT).
 */
export function pgRetention(
  pool: pg.Pool,
  inTransaction: <T>(fn: (client: pg.PoolClient) => Promise<T>) => Promise<T>,
): RetentionRepo {
  return retentionRepo(
    over(pool, (fn) =>
      inTransaction((client) => {
        const tx: RetentionDb = over(client, (inner) => inner(tx));
        return fn(tx);
      }),
    ),
  );
}
