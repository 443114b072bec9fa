import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WAL_SIZE_LIMIT_BYTES } from '../../src/store/sqlite/checkpointer.js';
import { openSqlite } from '../../src/store/sqlite/database.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';

const walBytes = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

/** One transaction of `mb` MB: the WAL holds all of it until a checkpoint copies it. */
function burst(db: ReturnType<typeof openSqlite>, mb: number): void {
  const insert = db.raw.prepare('INSERT INTO filler (x) VALUES (?)');
  db.raw.transaction(() => {
    for (let i = 0; i < mb * 16; i++) insert.run(Buffer.alloc(64 * 1024, i));
  })();
}

describe('the SQLite WAL stays bounded', () => {
  it('gives back the space of a burst once writes pause, and keeps every row', async () => {
    const tmp = tempDir('wal');
    const file = `${tmp.dir}/wms-sync.db`;
    const db = openSqlite(file);
    try {
      expect(db.raw.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
      db.raw.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, x BLOB)');
      burst(db, 24);
      expect(walBytes(file)).toBeGreaterThan(20 * 1024 * 1024);
      await until(() => walBytes(file) === 0, { timeoutMs: 20_000, message: 'the WAL truncated after the burst' });
      expect(db.raw.prepare('SELECT count(*) FROM filler').pluck().get()).toBe(24 * 16);
      expect(db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
      // Writes go on as before once the WAL was cut back.
      burst(db, 1);
      expect(db.raw.prepare('SELECT count(*) FROM filler').pluck().get()).toBe(25 * 16);
    } finally {
      await db.close();
      tmp.remove();
    }
  });

  it('under steady writes, keeps the WAL near its bound instead of its largest size', async () => {
    const tmp = tempDir('wal-steady');
    const file = `${tmp.dir}/wms-sync.db`;
    const db = openSqlite(file);
    try {
      db.raw.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, x BLOB)');
      burst(db, 24);
      // Small commits keep coming: no pause, yet each restart of the WAL cuts it back to the bound.
      await until(
        () => {
          burst(db, 0.25);
          return walBytes(file) <= WAL_SIZE_LIMIT_BYTES + 1024 * 1024;
        },
        { timeoutMs: 20_000, everyMs: 50, message: 'the WAL cut back to its bound' },
      );
    } finally {
      await db.close();
      tmp.remove();
    }
  });
});
