import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { BreakerState, DeliveryAttemptOutcome, DeliveryStatus, FeedEntryType } from '../values.js';

// ERP delivery tables. Column for column the same as src/store/sqlite/delivery-schema.ts
// (checked in src/store/schema-parity.ts).

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One row per feed event pushed to a connection's ERP webhook (its ERP delivery). */
export const erpDeliveries = pgTable(
  'erp_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    connection: text('connection').notNull(),
    feedEntryId: bigint('feed_entry_id', { mode: 'number' }).notNull(),
    type: text('type').$type<FeedEntryType>().notNull(),
    /** Deliveries with the same key go in feed order (the document, or the product and lot). */
    orderKey: text('order_key').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull(),
    /**
     * Whether it is its key's head: the pending delivery of its connection and order key with the
     * lowest feed id. Only heads are claimable, so a claim reads the heads alone, never the
     * deliveries waiting behind them (docs/erp-delivery.md, "Order"). Kept by every path that
     * moves a delivery into or out of `pending` (`refreshHeads`).
     */
    head: boolean('head').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    /** When the feed event was written (its feed entry's createdAt): the start of its delivery latency. */
    feedAt: ts('feed_at').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    uniqueIndex('erp_deliveries_event').on(t.connection, t.feedEntryId),
    index('erp_deliveries_key').on(t.connection, t.orderKey, t.status, t.feedEntryId),
    index('erp_deliveries_list').on(t.connection, t.status, t.id),
    index('erp_deliveries_age').on(t.updatedAt),
    index('erp_deliveries_ready').on(t.nextAttemptAt, t.id).where(sql`status = 'pending' AND head`),
    // Each key's pending deliveries in feed order: the claim's check of a head and the heads' refresh
    // find a key's first one here in one step, and no other index can serve them (the planner, without
    // statistics, took erp_deliveries_list and read every pending delivery of the connection per head).
    index('erp_deliveries_pending').on(t.connection, t.orderKey, t.feedEntryId).where(sql`status = 'pending'`),
    index('erp_deliveries_heads').on(t.connection, t.orderKey).where(sql`status = 'pending' AND head`),
  ],
);

/** Every attempt: when, what the ERP answered, how long it took, the first KB of its answer. */
export const erpDeliveryAttempts = pgTable(
  'erp_delivery_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: bigint('delivery_id', { mode: 'number' }).notNull(),
    connection: text('connection').notNull(),
    at: ts('at').notNull(),
    outcome: text('outcome').$type<DeliveryAttemptOutcome>().notNull(),
    /** HTTP status; null when no answer came (refused, reset, timeout). */
    status: integer('status'),
    latencyMs: integer('latency_ms').notNull(),
    response: text('response'),
    error: text('error'),
    probe: boolean('probe').notNull().default(false),
  },
  (t) => [index('erp_delivery_attempts_delivery').on(t.deliveryId, t.id), index('erp_delivery_attempts_age').on(t.at)],
);

/** How far each connection's feed has been turned into deliveries. */
export const erpDeliveryCursors = pgTable('erp_delivery_cursors', {
  connection: text('connection').primaryKey(),
  lastFeedEntryId: bigint('last_feed_entry_id', { mode: 'number' }).notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** The circuit breaker of each connection's endpoint, shared by every process on the database. */
export const erpDeliveryBreakers = pgTable('erp_delivery_breakers', {
  connection: text('connection').primaryKey(),
  state: text('state').$type<BreakerState>().notNull(),
  /** Consecutive failed attempts (a success resets it). */
  failures: integer('failures').notNull().default(0),
  openedAt: ts('opened_at'),
  nextProbeAt: ts('next_probe_at'),
  updatedAt: ts('updated_at').notNull(),
});
