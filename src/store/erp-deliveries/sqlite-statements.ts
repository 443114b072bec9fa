import type Database from 'better-sqlite3';
import type { FeedEntry } from '../feed/contract.js';
import type { Delivery, DeliveryBreaker } from './contract.js';

// The claim's order rule in one statement: due, not leased, and no earlier pending delivery of
// the same key (leased or waiting for a retry) exists. Only heads are read (erp_deliveries_ready),
// so deliveries waiting behind their key's head cost a claim nothing; the check against the key
// (its lowest pending feed id) stays as the rule itself, so a mark out of step could delay a key,
// never reorder it.
const CLAIMABLE = `
  d.status = 'pending' AND d.head = 1 AND (d.lease_until IS NULL OR d.lease_until < @now)
  AND d.feed_entry_id = (
    SELECT e.feed_entry_id FROM erp_deliveries e WHERE e.connection = d.connection AND e.order_key = d.order_key AND e.status = 'pending'
    ORDER BY e.feed_entry_id LIMIT 1)`;

export function prepare(raw: Database.Database) {
  const claims = new Map<number, Database.Statement>();
  return {
    enqueue: raw.prepare(
      `INSERT INTO erp_deliveries (connection, feed_entry_id, type, order_key, status, attempts, next_attempt_at, feed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    claim: (connections: number) => {
      let s = claims.get(connections);
      if (!s) {
        const names = Array.from({ length: connections }, (_, i) => `@c${i}`).join(', ');
        s = raw.prepare(
          // The index named, not left to the planner: without ANALYZE statistics it takes
          // erp_deliveries_list (connection, status) and walks every pending delivery again.
          `SELECT d.id FROM erp_deliveries d INDEXED BY erp_deliveries_ready
           WHERE d.next_attempt_at <= @now AND d.connection IN (${names}) AND ${CLAIMABLE}
           ORDER BY d.next_attempt_at, d.id LIMIT @limit`,
        );
        claims.set(connections, s);
      }
      return s;
    },
    firstPending: raw.prepare(
      `SELECT id, head FROM erp_deliveries WHERE connection = ? AND order_key = ? AND status = 'pending' ORDER BY feed_entry_id LIMIT 1`,
    ),
    clearHeads: raw.prepare(
      `UPDATE erp_deliveries SET head = 0 WHERE connection = ? AND order_key = ? AND status = 'pending' AND head = 1 AND id <> ?`,
    ),
    markHead: raw.prepare(`UPDATE erp_deliveries SET head = 1 WHERE id = ?`),
    // Two index-only reads: the keys with pending deliveries, less those with a head.
    headless: raw.prepare(
      `SELECT connection, order_key FROM erp_deliveries INDEXED BY erp_deliveries_pending WHERE status = 'pending'
       EXCEPT SELECT connection, order_key FROM erp_deliveries INDEXED BY erp_deliveries_heads WHERE status = 'pending' AND head = 1`,
    ),
    keysOf: raw.prepare(
      `SELECT DISTINCT connection, order_key FROM erp_deliveries WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    probe: raw.prepare(
      `SELECT d.id FROM erp_deliveries d INDEXED BY erp_deliveries_heads WHERE d.connection = @connection AND ${CLAIMABLE} ORDER BY d.next_attempt_at, d.id LIMIT 1`,
    ),
    lease: raw.prepare(
      `UPDATE erp_deliveries SET lease_owner = ?, lease_until = ? WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    byIds: raw.prepare(`SELECT * FROM erp_deliveries WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`),
    events: raw.prepare(
      `SELECT * FROM feed_entries WHERE id IN (SELECT d.feed_entry_id FROM erp_deliveries d WHERE d.id IN (SELECT value FROM json_each(?)))`,
    ),
    newCursor: raw.prepare(
      `INSERT INTO erp_delivery_cursors (connection, last_feed_entry_id, updated_at) VALUES (?, 0, ?) ON CONFLICT DO NOTHING`,
    ),
    cursor: raw.prepare(`SELECT last_feed_entry_id AS last FROM erp_delivery_cursors WHERE connection = ?`),
    setCursor: raw.prepare(
      `UPDATE erp_delivery_cursors SET last_feed_entry_id = ?, updated_at = ? WHERE connection = ?`,
    ),
    breakers: raw.prepare(`SELECT * FROM erp_delivery_breakers`),
    delivered: raw.prepare(
      `UPDATE erp_deliveries SET status = 'delivered', head = 0, attempts = attempts + 1, last_status = ?, last_error = NULL, delivered_at = ?, updated_at = ?,
       lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`,
    ),
    dead: raw.prepare(
      `UPDATE erp_deliveries SET status = 'dead', head = 0, attempts = attempts + 1, last_status = ?, last_error = ?, updated_at = ?,
       lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`,
    ),
    retry: raw.prepare(
      `UPDATE erp_deliveries SET attempts = attempts + 1, last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ?,
       lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`,
    ),
    probeFailed: raw.prepare(
      `UPDATE erp_deliveries SET last_status = ?, last_error = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`,
    ),
    attempt: raw.prepare(
      `INSERT INTO erp_delivery_attempts (delivery_id, connection, at, outcome, status, latency_ms, response, error, probe)
       SELECT @id, connection, @at, @outcome, @status, @latency, @response, @error, @probe FROM erp_deliveries WHERE id = @id`,
    ),
    reschedule: raw.prepare(
      `UPDATE erp_deliveries SET next_attempt_at = ?, updated_at = ? WHERE connection = ? AND status = 'pending' AND next_attempt_at > ?`,
    ),
    takeProbe: raw.prepare(
      `UPDATE erp_delivery_breakers SET next_probe_at = @next, updated_at = @now WHERE connection = @connection AND state = 'open' AND next_probe_at <= @now`,
    ),
  };
}

// Rows read with raw statements on the hot path (drizzle builds and prepares each query anew).
export interface RawDelivery {
  id: number;
  connection: string;
  feed_entry_id: number;
  type: Delivery['type'];
  order_key: string;
  status: Delivery['status'];
  head: number;
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  last_status: number | null;
  last_error: string | null;
  feed_at: number;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}
export interface RawFeedEntry {
  id: number;
  connection: string;
  type: FeedEntry['type'];
  dedupe_key: string;
  source_event_id: number | null;
  traceparent: string | null;
  data: string;
  created_at: number;
}
export interface RawBreaker {
  connection: string;
  state: DeliveryBreaker['state'];
  failures: number;
  opened_at: number | null;
  next_probe_at: number | null;
  updated_at: number;
}

export const date = (ms: number | null) => (ms === null ? null : new Date(ms));

export function deliveryOf(r: RawDelivery): Delivery {
  return {
    id: r.id,
    connection: r.connection,
    feedEntryId: r.feed_entry_id,
    type: r.type,
    orderKey: r.order_key,
    status: r.status,
    head: r.head === 1,
    attempts: r.attempts,
    nextAttemptAt: new Date(r.next_attempt_at),
    leaseOwner: r.lease_owner,
    leaseUntil: date(r.lease_until),
    lastStatus: r.last_status,
    lastError: r.last_error,
    feedAt: new Date(r.feed_at),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    deliveredAt: date(r.delivered_at),
  };
}

export function feedEntryOf(r: RawFeedEntry): FeedEntry {
  return {
    id: r.id,
    connection: r.connection,
    type: r.type,
    dedupeKey: r.dedupe_key,
    sourceEventId: r.source_event_id,
    traceparent: r.traceparent,
    data: JSON.parse(r.data) as Record<string, unknown>,
    createdAt: new Date(r.created_at),
  };
}

export function breakerOf(r: RawBreaker): DeliveryBreaker {
  return {
    connection: r.connection,
    state: r.state,
    failures: r.failures,
    openedAt: date(r.opened_at),
    nextProbeAt: date(r.next_probe_at),
    updatedAt: new Date(r.updated_at),
  };
}
