import { bigint, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ConfirmationType, InboundStatus, OutboundEntity, OutboundState } from '../values.js';

// Mirrors src/store/sqlite/schema.ts column for column (checked in src/store/schema-parity.ts).

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

export const inboundEvents = pgTable(
  'inbound_events',
  {
    id: id(),
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

export const outboundRecords = pgTable(
  'outbound_records',
  {
    id: id(),
    connection: text('connection').notNull(),
    entity: text('entity').$type<OutboundEntity>().notNull(),
    externalCode: text('external_code').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    payloadHash: text('payload_hash').notNull(),
    syncedHash: text('synced_hash'),
    state: text('state').$type<OutboundState>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: jsonb('last_error').$type<unknown>(),
    lastPushedAt: ts('last_pushed_at'),
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

export const outboundWaits = pgTable(
  'outbound_waits',
  {
    id: id(),
    connection: text('connection').notNull(),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    entity: text('entity').$type<OutboundEntity>().notNull(),
    externalCode: text('external_code').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('outbound_waits_key').on(t.recordId, t.entity, t.externalCode),
    index('outbound_waits_target').on(t.connection, t.entity, t.externalCode),
  ],
);

export const confirmations = pgTable(
  'confirmations',
  {
    id: id(),
    connection: text('connection').notNull(),
    type: text('type').$type<ConfirmationType>().notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    sourceEventId: bigint('source_event_id', { mode: 'number' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('confirmations_key').on(t.connection, t.dedupeKey),
    index('confirmations_feed').on(t.connection, t.id),
  ],
);

export const stockLedger = pgTable(
  'stock_ledger',
  {
    id: id(),
    connection: text('connection').notNull(),
    productExternalCode: text('product_external_code').notNull(),
    lotCode: text('lot_code').notNull().default(''),
    warehouse: text('warehouse'),
    quantity: doublePrecision('quantity').notNull(),
    movementTime: ts('movement_time').notNull(),
    source: text('source').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    sourceEventId: bigint('source_event_id', { mode: 'number' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('stock_ledger_key').on(t.connection, t.dedupeKey),
    index('stock_ledger_product').on(t.connection, t.productExternalCode, t.lotCode, t.movementTime),
  ],
);
