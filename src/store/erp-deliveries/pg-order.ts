import { sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';

// The claim's order rule: due, not leased, and no earlier pending delivery of the same key
// (leased or waiting for its retry) exists. SKIP LOCKED lets two processes claim side by side;
// a delivery being finished by another process is skipped, never waited for. Only heads are read
// (erp_deliveries_ready); the key's lowest pending feed id is still checked, as the rule itself
// (sqlite.ts). On a table not yet analyzed (autovacuum looks once a minute, and the
// table grows fast in an outage) the planner turned the NOT EXISTS of this check into an
// anti-join, and a min() into a scan of erp_deliveries_list, each reading every pending delivery
// of the connection per head (0.9 s a claim with 5,000 pending). The key's first pending one, in
// erp_deliveries_pending's own order, is one index-only step whatever the statistics.
export const claimable = (now: Date) => sql`
  d.status = 'pending' AND d.head AND (d.lease_until IS NULL OR d.lease_until < ${now})
  AND d.feed_entry_id = (
    SELECT e.feed_entry_id FROM erp_deliveries e WHERE e.connection = d.connection AND e.order_key = d.order_key AND e.status = 'pending'
    ORDER BY e.feed_entry_id LIMIT 1)`;

/** The advisory-lock namespace of order keys (the two-key form: apart from every one-key lock). */
export const KEY_LOCKS = 0x77736b68;
/**
 * Keys share this many locks (by hash): a transaction holds at most this many, however many keys
 * it moves (a bulk resend moves up to 10,000, which one lock per key would take from Postgres's
 * shared lock table, about 6,400 entries on its defaults for every session of the server). The
 * price: transactions on different keys often share a lock, so finishes of two processes mostly
 * run one after the other (each a few ms), and a bulk resend holds the pushes until it commits.
 */
const KEY_LOCK_BUCKETS = 1024;

/** The keys of these deliveries, each once. */
const keysOf = (ids: readonly number[]) =>
  sql`SELECT DISTINCT connection AS c, order_key AS k FROM erp_deliveries WHERE id = ANY(${sql.param([...ids])}::bigint[])`;
/** The pending delivery of a key (`key.c`, `key.k`) with the lowest feed id: its head. */
export const FIRST = sql`(SELECT e.id FROM erp_deliveries e WHERE e.connection = key.c AND e.order_key = key.k AND e.status = 'pending' ORDER BY e.feed_entry_id LIMIT 1)`;

/**
 * Locks the keys of these deliveries until commit, in one order for every transaction (no
 * deadlock between two). Taken before a transaction moves deliveries into or out of `pending` and
 * refreshes their keys' heads, and before it updates any delivery of those keys: two processes
 * doing so for one key at once (one finishing the head while the other enqueues behind it) would
 * each miss the other's uncommitted change and leave the key without a head, so the second waits,
 * then sees the first's commit.
 */
export async function lockKeys(o: PgOrm, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await o.execute(sql`
    SELECT count(*) FROM (SELECT pg_advisory_xact_lock(${KEY_LOCKS}::int, b) FROM (
      SELECT DISTINCT hashtext(key.c || '/' || key.k) & ${KEY_LOCK_BUCKETS - 1} AS b FROM (${keysOf(ids)}) key ORDER BY b) ordered) locked`);
}

/**
 * Makes the head mark of these deliveries' keys true again: the key's lowest pending delivery, and
 * no other (under `lockKeys`). Each key is looked up in its own index range (LATERAL, and ids
 * gathered into an array first), so a refresh costs the same however many deliveries and heads
 * the table holds, whatever the planner's statistics say.
 */
export async function refreshHeads(o: PgOrm, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await o.execute(sql`
    UPDATE erp_deliveries SET head = false WHERE id = ANY(ARRAY(
      SELECT h.id FROM (${keysOf(ids)}) key
      CROSS JOIN LATERAL (SELECT e.id FROM erp_deliveries e WHERE e.connection = key.c AND e.order_key = key.k AND e.status = 'pending' AND e.head) h
      WHERE h.id IS DISTINCT FROM ${FIRST}))`);
  await o.execute(
    sql`UPDATE erp_deliveries SET head = true WHERE id = ANY(ARRAY(SELECT ${FIRST} FROM (${keysOf(ids)}) key)) AND NOT head`,
  );
}
