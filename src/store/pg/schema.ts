import { sql } from 'drizzle-orm';
import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { EditChange } from '../inbox/edit-change.js';
import type { FeedEntryType, InboundAttemptOutcome, InboundStatus, PushEntity, PushState } from '../values.js';

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
    // The W3C traceparent of the receipt: processing continues its trace (docs/operations.md#traces).
    traceparent: text('traceparent'),
    receivedAt: ts('received_at').notNull(),
    lastDuplicateAt: ts('last_duplicate_at'),
    processedAt: ts('processed_at'),
    updatedAt: ts('updated_at').notNull(),
    // Retention: when the raw body was emptied; the row stays as the dedupe key (docs/operations.md).
    payloadPrunedAt: ts('payload_pruned_at'),
    // What an operator looks an event up by: closingDocumentCode, or a regularization's product.
    businessCode: text('business_code'),
    quarantineReason: text('quarantine_reason'),
    // The latest operator correction (the history is in inbound_event_edits); `payload` stays as received.
    correction: text('correction'),
  },
  (t) => [
    uniqueIndex('inbound_events_key').on(t.connection, t.dedupeKey),
    // Every index here is paid by the webhook receiver's insert (and, if it holds the status, by
    // processing's update again): few and narrow, measured in docs/webhooks.md ("Indexes").
    // The lists of one connection, newest first; any other filter is checked on the rows, which
    // are dense for every filter but the rare statuses below.
    index('inbound_events_connection').on(t.connection, t.id),
    index('inbound_events_code').on(t.businessCode, t.id),
    // The id span of a time range (the lists' time filter) read from this index alone.
    index('inbound_events_received').on(t.receivedAt, t.id),
    // Every event not (yet) processed: the backlog, the quarantined, failed and refused ones an
    // operator looks for. Partial, so that the common status costs nothing here: an event enters
    // on receipt and leaves when processed. Queries name `status <> 'processed'` to use it.
    // `kind` last: a kind's page is read in id order, its kind checked in the index, not the row.
    index('inbound_events_open').on(t.status, t.connection, t.id, t.kind).where(sql`status <> 'processed'`),
  ],
);

export const wmsPushes = pgTable(
  'wms_pushes',
  {
    id: id(),
    connection: text('connection').notNull(),
    entity: text('entity').$type<PushEntity>().notNull(),
    externalCode: text('external_code').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    payloadHash: text('payload_hash').notNull(),
    syncedHash: text('synced_hash'),
    state: text('state').$type<PushState>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: jsonb('last_error').$type<unknown>(),
    lastPushedAt: ts('last_pushed_at'),
    lockedBy: text('locked_by'),
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('wms_pushes_key').on(t.connection, t.entity, t.externalCode),
    index('wms_pushes_state').on(t.connection, t.state),
    // /metrics (the oldest pending record) and retention (synced documents by age), without a scan.
    index('wms_pushes_state_age').on(t.state, t.updatedAt),
    // Keyset pages of one entity (and state), newest first, and the counts by entity and state.
    index('wms_pushes_list').on(t.connection, t.entity, t.state, t.id),
  ],
);

export const wmsPushWaits = pgTable(
  'wms_push_waits',
  {
    id: id(),
    connection: text('connection').notNull(),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    entity: text('entity').$type<PushEntity>().notNull(),
    externalCode: text('external_code').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('wms_push_waits_key').on(t.recordId, t.entity, t.externalCode),
    index('wms_push_waits_target').on(t.connection, t.entity, t.externalCode),
  ],
);

export const feedEntries = pgTable(
  'feed_entries',
  {
    id: id(),
    connection: text('connection').notNull(),
    type: text('type').$type<FeedEntryType>().notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    sourceEventId: bigint('source_event_id', { mode: 'number' }),
    // The trace of the work that wrote the entry: its ERP deliveries continue it.
    traceparent: text('traceparent'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('feed_entries_key').on(t.connection, t.dedupeKey),
    index('feed_entries_cursor').on(t.connection, t.id),
    index('feed_entries_age').on(t.createdAt),
    index('feed_entries_source').on(t.sourceEventId),
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
    index('stock_ledger_age').on(t.createdAt),
  ],
);

/** Operator corrections of inbound events, oldest first: who, when, the whole payload, and what changed. */
export const inboundEventEdits = pgTable(
  'inbound_event_edits',
  {
    id: id(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    connection: text('connection').notNull(),
    actor: text('actor').notNull(),
    payload: text('payload').notNull(),
    changes: jsonb('changes').$type<EditChange[]>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('inbound_event_edits_event').on(t.eventId, t.id)],
);

/** One row per processing attempt of an inbound event, with its outcome and error. */
export const inboundAttempts = pgTable(
  'inbound_attempts',
  {
    id: id(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    connection: text('connection').notNull(),
    outcome: text('outcome').$type<InboundAttemptOutcome>().notNull(),
    error: text('error'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('inbound_attempts_event').on(t.eventId, t.id)],
);

/** The adaptive concurrency limit of each WMS connection, shared by the deployment's processes (JSON state of src/wms-client/adaptive/rules.ts). */
export const wmsLimits = pgTable('wms_limits', {
  connection: text('connection').primaryKey(),
  state: text('state').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** The processes using a connection's limit now, with their demand; a row past `expires_at` is a process gone. */
export const wmsLimitHolders = pgTable(
  'wms_limit_holders',
  {
    connection: text('connection').notNull(),
    holder: text('holder').notNull(),
    demand: integer('demand').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.connection, t.holder] })],
);
