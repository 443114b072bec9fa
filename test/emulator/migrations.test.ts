import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/emulator/db/migrations.js';

describe("the emulator's migrations", () => {
  it('a data file written before the webhook log was named so keeps its rows, read back under the new name', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec(
      'CREATE TABLE emulator_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    for (const m of MIGRATIONS.filter((m) => m.version <= 4)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO emulator_migrations (version, name, applied_at) VALUES (?, ?, 0)').run(m.version, m.name);
    }
    db.prepare('INSERT INTO tenants (id, created_at) VALUES (?, 0)').run('acme');
    const insert = db.prepare(
      `INSERT INTO webhook_deliveries (tenant_id, kind, url, body, cause, attempt, status, not_before, created_at)
       VALUES ('acme', 'stock-regularization', 'http://erp.test/hook', '{}', 'event', 1, ?, 0, 0)`,
    );
    insert.run('failed');
    insert.run('pending');

    migrate(db);

    expect(db.prepare('SELECT id, status FROM webhook_log ORDER BY id').all()).toEqual([
      { id: 1, status: 'failed' },
      { id: 2, status: 'pending' },
    ]);
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_log' ORDER BY name")
      .all();
    expect(indexes).toEqual([{ name: 'webhook_log_status' }, { name: 'webhook_log_tenant' }]);
    // AUTOINCREMENT survives the rename: a new row never reuses an id.
    db.prepare('DELETE FROM webhook_log WHERE id = 2').run();
    db.prepare(
      `INSERT INTO webhook_log (tenant_id, kind, url, body, cause, attempt, status, not_before, created_at)
       VALUES ('acme', 'stock-regularization', 'http://erp.test/hook', '{}', 'event', 1, 'pending', 0, 0)`,
    ).run();
    expect(db.prepare('SELECT max(id) AS id FROM webhook_log').get()).toEqual({ id: 3 });
    // A tenant's deletion still cascades to its log.
    db.prepare("DELETE FROM tenants WHERE id = 'acme'").run();
    expect(db.prepare('SELECT count(*) AS n FROM webhook_log').get()).toEqual({ n: 0 });
  });
});
