/**
 * Migration 2: warehouses, stock, receptions, shipping orders, packings, closing documents and
 * the webhook delivery log. Lot codes are '' (never NULL) where they are part of a key, so UNIQUE
 * constraints hold for products without lots. Quantities are REAL (the spec's numbers).
 */
export const WAREHOUSE_OPERATIONS_SQL = `
  -- Products created in the WMS itself have no API external code: the API does not show them and
  -- stock-regularization webhooks are not sent for them (their code is kept in external_code).
  ALTER TABLE products ADD COLUMN origin TEXT NOT NULL DEFAULT 'api';

  -- Bumped by POST /_emulator/tenants/{tenant}/tokens/expire; tokens carry the value they were issued with.
  ALTER TABLE tenants ADD COLUMN token_epoch INTEGER NOT NULL DEFAULT 0;

  -- Numbering of the WMS's own codes. No foreign key: numbers are never reused, even after a tenant
  -- reset, so a receiver keyed on closingDocumentCode never takes a new close for a duplicate.
  CREATE TABLE sequences (
    tenant_id TEXT NOT NULL,
    series TEXT NOT NULL,
    year INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, series, year)
  );

  CREATE TABLE warehouses (
    id INTEGER PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    external_code TEXT,
    shipping_process TEXT,
    created_at INTEGER NOT NULL,
    UNIQUE (tenant_id, code)
  );
  INSERT INTO warehouses (tenant_id, code, created_at) SELECT id, 'MAIN', created_at FROM tenants;

  CREATE TABLE stock (
    id INTEGER PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    lot_code TEXT NOT NULL DEFAULT '',
    warehouse_id INTEGER NOT NULL REFERENCES warehouses(id) ON DELETE CASCADE,
    location TEXT NOT NULL,
    bulk REAL NOT NULL DEFAULT 0,
    containers REAL NOT NULL DEFAULT 0,
    reserved REAL NOT NULL DEFAULT 0,
    UNIQUE (product_id, lot_code, warehouse_id, location)
  );
  CREATE INDEX stock_tenant ON stock(tenant_id, product_id);

  CREATE TABLE receptions (
    id INTEGER PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    status TEXT NOT NULL,
    warehouse_id INTEGER NOT NULL REFERENCES warehouses(id) ON DELETE CASCADE,
    observations TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    closed_at INTEGER,
    UNIQUE (tenant_id, code)
  );

  CREATE TABLE reception_documents (
    reception_id INTEGER NOT NULL REFERENCES receptions(id) ON DELETE CASCADE,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (reception_id, document_id)
  );
  CREATE INDEX reception_documents_document ON reception_documents(document_id);

  CREATE TABLE reception_lines (
    id INTEGER PRIMARY KEY,
    reception_id INTEGER NOT NULL REFERENCES receptions(id) ON DELETE CASCADE,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    product_external_code TEXT NOT NULL,
    product_id INTEGER REFERENCES products(id) ON DELETE SET NULL,
    lot_code TEXT,
    expiration_date TEXT,
    serial_numbers TEXT,
    quantity REAL NOT NULL,
    location TEXT NOT NULL,
    in_containers INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX reception_lines_reception ON reception_lines(reception_id);

  CREATE TABLE shipping_orders (
    id INTEGER PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    warehouse_id INTEGER NOT NULL REFERENCES warehouses(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    observations TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    dispatched_at INTEGER,
    UNIQUE (tenant_id, code)
  );
  CREATE INDEX shipping_orders_document ON shipping_orders(document_id);

  CREATE TABLE shipping_picks (
    id INTEGER PRIMARY KEY,
    shipping_order_id INTEGER NOT NULL REFERENCES shipping_orders(id) ON DELETE CASCADE,
    stock_id INTEGER NOT NULL REFERENCES stock(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    lot_code TEXT NOT NULL DEFAULT '',
    serial_numbers TEXT,
    quantity REAL NOT NULL,
    dispatched REAL NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX shipping_picks_order ON shipping_picks(shipping_order_id);

  CREATE TABLE packings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    shipping_order_id INTEGER NOT NULL REFERENCES shipping_orders(id) ON DELETE CASCADE,
    year INTEGER NOT NULL,
    series TEXT NOT NULL,
    number INTEGER NOT NULL,
    barcode TEXT NOT NULL,
    sscc TEXT NOT NULL,
    gross_weight REAL,
    net_weight REAL,
    height REAL,
    width REAL,
    depth REAL,
    volume REAL,
    parent_id INTEGER REFERENCES packings(id) ON DELETE CASCADE,
    container_type_code TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX packings_order ON packings(shipping_order_id);

  CREATE TABLE packing_lines (
    id INTEGER PRIMARY KEY,
    packing_id INTEGER NOT NULL REFERENCES packings(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    lot_code TEXT NOT NULL DEFAULT '',
    bulk REAL NOT NULL DEFAULT 0,
    containers REAL NOT NULL DEFAULT 0
  );
  CREATE INDEX packing_lines_packing ON packing_lines(packing_id);

  -- One per closed document: the payload is built once, so a re-send carries the same
  -- closingDocumentCode and body. webhook_kind is NULL for document types the spec does not send.
  CREATE TABLE closing_documents (
    id INTEGER PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    reception_id INTEGER REFERENCES receptions(id) ON DELETE CASCADE,
    shipping_order_id INTEGER REFERENCES shipping_orders(id) ON DELETE CASCADE,
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    webhook_kind TEXT,
    payload TEXT NOT NULL,
    integration_status TEXT NOT NULL,
    integration_message TEXT,
    created_at INTEGER NOT NULL,
    UNIQUE (tenant_id, code)
  );
  CREATE INDEX closing_documents_reception ON closing_documents(reception_id);
  CREATE INDEX closing_documents_shipping ON closing_documents(shipping_order_id);

  CREATE TABLE webhook_settings (
    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
    config TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );

  -- One row per HTTP request to make or made. AUTOINCREMENT: ids are never reused, so an attempt
  -- finishing after a tenant reset cannot update another delivery's row.
  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    closing_document_id INTEGER REFERENCES closing_documents(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    cause TEXT NOT NULL,
    origin_id INTEGER,
    attempt INTEGER NOT NULL,
    status TEXT NOT NULL,
    not_before INTEGER NOT NULL,
    response_status INTEGER,
    response_body TEXT,
    error TEXT,
    duration_ms REAL,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
  );
  CREATE INDEX webhook_deliveries_status ON webhook_deliveries(status, tenant_id, id);
  CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries(tenant_id, id);
`;
