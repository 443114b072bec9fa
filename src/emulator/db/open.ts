import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrations.js';

/** The emulator's own database: in memory by default, a file (surviving restarts) when given. */
export function openEmulatorDatabase(file?: string): Database.Database {
  if (file) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file ?? ':memory:');
  if (file) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
