import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';

/** Drizzle over the pool, or over one pooled client inside a transaction; `$client` is that pool or client. */
export type PgOrm = NodePgDatabase<Record<string, never>> & { $client: pg.Pool | pg.PoolClient };

export interface PgOptions {
  url: string;
  /** Schema holding our tables (search_path); `public` unless tests or operators choose another. */
  schema?: string;
  poolSize?: number;
  /** Called for errors of idle pooled connections (e.g. the server restarting), which would otherwise crash. */
  onIdleError?: (err: Error) => void;
}

export interface PgDatabase {
  readonly pool: pg.Pool;
  readonly orm: PgOrm;
  readonly schema: string;
  readonly url: string;
  ormFor(client: pg.PoolClient): PgOrm;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function openPg(options: PgOptions): PgDatabase {
  const schema = options.schema ?? 'public';
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    options: `-c search_path=${quoteIdent(schema)}`,
  });
  pool.on('error', (err) => options.onIdleError?.(err));
  // pg listens for a client's errors only while it sits idle in the pool: a server that goes away
  // while a client is checked out emits 'error' on it with no listener, which kills the process. The
  // query in flight already rejects and the pool discards the client, so the event only needs a home.
  pool.on('connect', (client) => {
    client.on('error', (err) => options.onIdleError?.(err));
  });
  return {
    pool,
    orm: drizzle({ client: pool }),
    schema,
    url: options.url,
    ormFor: (client) => drizzle({ client }) as unknown as PgOrm,
  };
}
