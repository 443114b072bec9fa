import type pg from 'pg';
import { retentionRepo, type RetentionDb } from '../retention-sql.js';
import type { RetentionRepo } from '../retention-types.js';

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

/** Retention on Postgres: chunks on the pool; roll-ups in a transaction on one pooled client. */
export function pgRetention(pool: pg.Pool): RetentionRepo {
  return retentionRepo(
    over(pool, async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: RetentionDb = over(client, (inner) => inner(tx));
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    }),
  );
}
