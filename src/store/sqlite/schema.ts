import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { ConfirmationType, InboundStatus, OutboundEntity, OutboundState } from '../values.js';

// Column names and inferred row types match src/store/pg/schema.ts exactly; the compile-time
// check in src/store/schema-parity.ts fails the type check when they drift apart.

const ts = (name: string) => integer(name, { mode: 'timestamp_ms' });

export const inboundEvents = sqliteTable(
  'inbound_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    connection: text('connection').notNull(),
    kind: text('kind').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    status: text('status').$type<InboundStatus>().notNull(),
    payload: text('payload').notNull(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    duplicates: integer('duplicates').notNull().default(0),
    requestId: text('request_id'),
    receivedAt: ts('received_at').notNull(),
    lastDuplicateAt: ts('last_duplicate_at'),
    processedAt: ts('processed_at'),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('inbound_events_key').on(t.connection, t.dedupeKey),
    index('inbound_events_status').on(t.status, t.id),
    // The console's overview counts a connection's recent events by kind and status from this index alone.
    index('inbound_events_received').on(t.connection, t.receivedAt, t.kind, t.status),
  ],
);

export const outboundRecords = sqliteTable(
  'outbound_records',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    connection: text('connection').notNull(),
    entity: text('entity').$type<OutboundEntity>().notNull(),
    externalCode: text('external_code').notNull(),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    payloadHash: text('payload_hash').notNull(),
    syncedHash: text('synced_hash'),
    state: text('state').$type<OutboundState>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error', { mode: 'json' }).$type<unknown>(),
    lastPushedAt: ts('last_pushed_at'),
    // Push lease: one job at a time pushes a record, so versions never land out of order.
    lockedBy: text('locked_by'),
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('outbound_records_key').on(t.connection, t.entity, t.externalCode),
    index('outbound_records_state').on(t.connection, t.state),
    // Keyset pages of one entity (and state), newest first, and the counts by entity and state.
    index('outbound_records_list').on(t.connection, t.entity, t.state, t.id),
  ],
);

/** What a waiting record (a document, a cancel) waits for: one row per missing reference. */
export const outboundWaits = sqliteTable(
  'outbound_waits',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    connection: text('connection').notNull(),
    recordId: integer('record_id').notNull(),
    entity: text('entity').$type<OutboundEntity>().notNull(),
    externalCode: text('external_code').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('outbound_waits_key').on(t.recordId, t.entity, t.externalCode),
    index('outbound_waits_target').on(t.connection, t.entity, t.externalCode),
  ],
);

export const confirmations = sqliteTable(
  'confirmations',
  {
    // AUTOINCREMENT: ids never go back, so the id is a safe cursor for the ERP feed.
    id: integer('id').primaryKey({ autoIncrement: true }),
    connection: text('connection').notNull(),
    type: text('type').$type<ConfirmationType>().notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    sourceEventId: integer('source_event_id'),
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('confirmations_key').on(t.connection, t.dedupeKey),
    index('confirmations_feed').on(t.connection, t.id),
  ],
);

export const stockLedger = sqliteTable(
  'stock_ledger',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    connection: text('connection').notNull(),
    productExternalCode: text('product_external_code').notNull(),
    // '' when the product is not lot-tracked: keeps (product, lot) usable in unique keys and GROUP BY.
    lotCode: text('lot_code').notNull().default(''),
    warehouse: text('warehouse'),
    quantity: real('quantity').notNull(),
    movementTime: ts('movement_time').notNull(),
    source: text('source').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    sourceEventId: integer('source_event_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('stock_ledger_key').on(t.connection, t.dedupeKey),
    index('stock_ledger_product').on(t.connection, t.productExternalCode, t.lotCode, t.movementTime),
  ],
);

