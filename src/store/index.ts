import type { Config } from '../lib/config.js';
import { createPgStore, type PgStore } from './pg/store.js';
import type { SqliteOpenOptions } from './sqlite/database.js';
import { createSqliteStore, type SqliteStore } from './sqlite/store.js';

export type { PgStore } from './pg/store.js';
export { RUN_COUNTERS } from './reconciliation/contract.js';
export { OPENING_BALANCE_SOURCE } from './retention/contract.js';
export type { SqliteStore } from './sqlite/store.js';
export * from './types.js';
export * from './values.js';

export type AnyStore = SqliteStore | PgStore;

/** Opens the store the configuration names: SQLite by default, Postgres when DATABASE_URL is set. */
export function openStore(
  database: Config['database'],
  options: { onIdleError?: (err: Error) => void; sqlite?: Omit<SqliteOpenOptions, 'synchronous'> } = {},
): AnyStore {
  if (database.kind === 'sqlite')
    return createSqliteStore({ file: database.file, synchronous: database.synchronous, ...options.sqlite });
  return createPgStore({
    url: database.url,
    poolSize: database.poolSize,
    schema: database.schema,
    ...(options.onIdleError ? { onIdleError: options.onIdleError } : {}),
  });
}
