import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
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

export function openSqlite(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a power cut may lose the last commits, never corrupt; an app crash loses nothing.
  raw.pragma('synchronous = NORMAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  let checkpointer: Checkpointer | undefined;
  if (file !== ':memory:') {
    raw.pragma('wal_autocheckpoint = 0');
    checkpointer = startCheckpointer(file);
  }
  return {
    file,
    raw,
    orm: drizzle({ client: raw }),
    lock: new SqliteLock(),
    close: async () => {
      await checkpointer?.stop();
      if (raw.open) raw.close();
    },
  };
}
