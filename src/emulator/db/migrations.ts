import type Database from 'better-sqlite3';
import { WAREHOUSE_OPERATIONS_SQL } from './migration-2.js';

/**
 * The emulator's private schema, applied in order and recorded in `emulator_migrations`. Append a
 * new entry for a change; never edit one that has shipped (a `--data` file may already hold it).
 * Timestamps are epoch milliseconds from the injected clock; booleans are 0/1.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'identity and master data',
    sql: `
      CREATE TABLE emulator_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE tenants (
        id TEXT PRIMARY KEY,
        api_with_lot INTEGER NOT NULL DEFAULT 0,
        api_with_expiration_date INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE clients (
        client_id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('api', 'oauth')),
        name TEXT,
        audience TEXT,
        secret_salt TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        generation INTEGER NOT NULL DEFAULT 1,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX clients_tenant ON clients(tenant_id);

      CREATE TABLE products (
        id INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        external_code TEXT NOT NULL,
        sku TEXT NOT NULL,
        description TEXT NOT NULL,
        abbreviation TEXT,
        observations TEXT,
        with_lots INTEGER NOT NULL,
        with_serial_numbers INTEGER NOT NULL,
        with_expiration_date INTEGER NOT NULL,
        with_security_device INTEGER NOT NULL,
        handling_unit TEXT,
        weight REAL,
        days_to_notify_expiration_date INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (tenant_id, external_code),
        UNIQUE (tenant_id, sku)
      );
      CREATE INDEX products_tenant ON products(tenant_id);
      CREATE INDEX products_tenant_description ON products(tenant_id, description);
      -- Narrow rows for searches that scan several text columns (skuOrDescription, search).
      CREATE INDEX products_tenant_text ON products(tenant_id, sku, description, external_code, abbreviation);

      -- Trigram full-text index for selective \`contains\` searches (criteria/where.ts), kept in
      -- step with products by triggers (which also fire on cascaded deletes).
      CREATE VIRTUAL TABLE products_text USING fts5(
        sku, description, external_code, abbreviation, content='products', content_rowid='id', tokenize='trigram'
      );
      CREATE TRIGGER products_text_insert AFTER INSERT ON products BEGIN
        INSERT INTO products_text (rowid, sku, description, external_code, abbreviation)
        VALUES (new.id, new.sku, new.description, new.external_code, new.abbreviation);
      END;
      CREATE TRIGGER products_text_delete AFTER DELETE ON products BEGIN
        INSERT INTO products_text (products_text, rowid, sku, description, external_code, abbreviation)
        VALUES ('delete', old.id, old.sku, old.description, old.external_code, old.abbreviation);
      END;
      CREATE TRIGGER products_text_update AFTER UPDATE OF sku, description, external_code, abbreviation ON products BEGIN
        INSERT INTO products_text (products_text, rowid, sku, description, external_code, abbreviation)
        VALUES ('delete', old.id, old.sku, old.description, old.external_code, old.abbreviation);
        INSERT INTO products_text (rowid, sku, description, external_code, abbreviation)
        VALUES (new.id, new.sku, new.description, new.external_code, new.abbreviation);
      END;

      CREATE TABLE product_barcodes (
        id INTEGER PRIMARY KEY,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        type TEXT NOT NULL
      );
      CREATE INDEX product_barcodes_product ON product_barcodes(product_id);
      CREATE INDEX product_barcodes_code ON product_barcodes(code);

      CREATE TABLE product_lots (
        id INTEGER PRIMARY KEY,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        active INTEGER NOT NULL,
        expiration_date TEXT,
        with_serial_numbers INTEGER,
        with_expiration_date INTEGER,
        days_to_notify_expiration_date INTEGER,
        UNIQUE (product_id, code)
      );
      CREATE INDEX product_lots_code ON product_lots(code);

      CREATE TABLE delivery_points (
        id INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        external_code TEXT NOT NULL,
        active INTEGER NOT NULL,
        name TEXT NOT NULL,
        delivery_point TEXT,
        alias TEXT,
        gln TEXT,
        nif TEXT,
        email TEXT,
        phone TEXT,
        url TEXT,
        address TEXT,
        postal_code TEXT,
        city TEXT,
        country TEXT,
        days_to_reserve_expiration_date INTEGER,
        allow_expired_lots INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (tenant_id, external_code)
      );
      CREATE INDEX delivery_points_tenant ON delivery_points(tenant_id);

      CREATE TABLE delivery_point_types (
        delivery_point_id INTEGER NOT NULL REFERENCES delivery_points(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        PRIMARY KEY (delivery_point_id, type)
      );

      CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        external_code TEXT NOT NULL,
        document_number TEXT NOT NULL,
        document_type TEXT NOT NULL,
        status TEXT NOT NULL,
        year INTEGER NOT NULL,
        series TEXT NOT NULL,
        number INTEGER NOT NULL,
        code TEXT NOT NULL,
        document_external_type TEXT,
        reference TEXT,
        observations TEXT,
        document_date TEXT,
        origin_external_code TEXT,
        destination_external_code TEXT,
        delivery_point_external_code TEXT,
        delivery_date TEXT,
        charge INTEGER,
        charge_value REAL,
        carrier TEXT,
        delivery_place TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (tenant_id, external_code),
        UNIQUE (tenant_id, series, year, number)
      );
      CREATE INDEX documents_tenant ON documents(tenant_id);
      CREATE INDEX documents_tenant_code ON documents(tenant_id, code);
      CREATE INDEX documents_tenant_status ON documents(tenant_id, status);

      CREATE TABLE document_lines (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        line_number INTEGER NOT NULL,
        quantity REAL NOT NULL,
        product_external_code TEXT NOT NULL,
        lot_code TEXT,
        supplier_lot_code TEXT,
        supplier_code TEXT,
        serial_number TEXT,
        external_code TEXT,
        quality_status_code TEXT,
        container_code TEXT,
        categories TEXT,
        UNIQUE (document_id, line_number)
      );
      CREATE INDEX document_lines_product ON document_lines(product_external_code);
    `,
  },
  {
    version: 2,
    name: 'warehouse operations, stock, packing, webhooks',
    sql: WAREHOUSE_OPERATIONS_SQL,
  },
  {
    version: 3,
    name: 'identity provider users (option B password flow)',
    sql: `
      CREATE TABLE oauth_users (
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        username TEXT NOT NULL,
        password_salt TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, username)
      );
    `,
  },
  {
    version: 4,
    name: 'webhook style',
    sql: `
      -- How a tenant's webhook payloads are written (webhooks/style.ts); no row = canonical.
      CREATE TABLE webhook_styles (
        tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
        style TEXT NOT NULL CHECK (style IN ('canonical', 'varied')),
        seed INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'webhook log',
    sql: `
      ALTER TABLE webhook_deliveries RENAME TO webhook_log;
      DROP INDEX webhook_deliveries_status;
      DROP INDEX webhook_deliveries_tenant;
      CREATE INDEX webhook_log_status ON webhook_log(status, tenant_id, id);
      CREATE INDEX webhook_log_tenant ON webhook_log(tenant_id, id);
    `,
  },
];

export function migrate(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS emulator_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM emulator_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const record = db.prepare('INSERT INTO emulator_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    })();
  }
}
