import type { AnyStore } from '../store/index.js';
import { PgBossQueue, type PgBossQueueOptions } from './pgboss.js';
import { SqliteQueue, type SqliteQueueOptions } from './sqlite/queue.js';
import type { Queue } from './types.js';

export { PgBossQueue } from './pgboss.js';
export { SqliteQueue } from './sqlite/queue.js';
export * from './types.js';

export interface QueueTuning {
  sqlite?: SqliteQueueOptions;
  pgboss?: Omit<PgBossQueueOptions, 'pool' | 'schema'>;
}

/** pg-boss's schema next to ours: `pgboss` beside `public`, `<schema>_boss` beside any other. */
export function bossSchemaFor(storeSchema: string): string {
  return storeSchema === 'public' ? 'pgboss' : `${storeSchema}_boss`;
}

/** The queue that lives in the store's database: embedded on SQLite, pg-boss on Postgres. */
export function openQueue(store: AnyStore, tuning: QueueTuning = {}): Queue {
  if (store.dialect === 'sqlite') return new SqliteQueue(store.database, tuning.sqlite);
  return new PgBossQueue({ pool: store.database.pool, schema: bossSchemaFor(store.database.schema), ...tuning.pgboss });
}
