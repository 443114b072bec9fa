import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3';
import { type Checkpointer, startCheckpointer, WAL_SIZE_LIMIT_BYTES } from './checkpointer.js';
import { SqliteLock } from './lock.js';

export type SqliteOrm = BetterSQLite3Database<Record<string, never>>;

/** One SQLite connection shared by the store and the embedded queue (same file, same lock). */
export interface SqliteDatabase {
  readonly file: string;
  readonly raw: Database.Database;
  readonly orm: SqliteOrm;
  readonly lock: SqliteLock;
  /** Stops the checkpoint thread (after a last checkpoint), then closes the connection. */
  close(): Promise<void>;
}

/**
 * `synchronous`: NORMAL (the default) never corrupts and loses nothing when the process crashes,
 * but a power cut or OS crash may undo the last commits, webhooks already acknowledged among them.
 * FULL fsyncs every commit (group commit keeps that affordable: docs/storage-and-queue.md).
 */
export interface SqliteOpenOptions {
  synchronous?: 'normal' | 'full';
  /**
   * The WAL's bound (`WAL_SIZE_LIMIT_BYTES` unless given); null leaves the WAL unbounded, never
   * truncated, as SQLite does by default (the WAL bench's baseline).
   */
  walLimitBytes?: number | null;
  /** How long a call waits for an open transaction (`LOCK_WAIT_LIMIT_MS` unless given). */
  lockWaitLimitMs?: number;
}

export function openSqlite(file: string, options: SqliteOpenOptions = {}): SqliteDatabase {
  const { synchronous = 'normal' } = options;
  const walLimitBytes = options.walLimitBytes === undefined ? WAL_SIZE_LIMIT_BYTES : options.walLimitBytes;
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  let checkpointer: Checkpointer | undefined;
  if (file !== ':memory:') {
    raw.pragma('wal_autocheckpoint = 0');
    // This connection is the writer: it is the one that cuts the WAL back when it starts it over.
    if (walLimitBytes !== null) raw.pragma(`journal_size_limit = ${walLimitBytes}`);
    checkpointer = startCheckpointer(file, { limitBytes: walLimitBytes });
  }
  return {
    file,
    raw,
    orm: drizzle({ client: raw }),
    lock: new SqliteLock(options.lockWaitLimitMs),
    close: async () => {
      await checkpointer?.stop();
      if (raw.open) raw.close();
    },
  };
}
