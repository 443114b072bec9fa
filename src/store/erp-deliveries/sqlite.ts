import type Database from 'better-sqlite3';
import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import { erpDeliveryAttempts as a, erpDeliveryBreakers as b, erpDeliveries as d } from '../sqlite/delivery-schema.js';
import type { Run } from '../sqlite/runner.js';
import type { Confirmation } from '../types.js';
import type {
  BreakerRow,
  ClaimedDelivery,
  ClaimQuery,
  DeliveriesRepo,
  Delivery,
  DeliveryBreaker,
  DeliveryResult,
  NewDelivery,
} from './contract.js';
import { deliveryWhere } from './filter.js';

// The claim's order rule in one statement: due, not leased, and no earlier pending delivery of
// the same key (leased or waiting for a retry) exists. Only heads are read (erp_deliveries_ready),
// so deliveries waiting behind their key's head cost a claim nothing; the check against the key
// (its lowest pending feed id) stays as the rule itself, so a mark out of step could delay a key,
// never reorder it.
const CLAIMABLE = `
  d.status = 'pending' AND d.head = 1 AND (d.lease_until IS NULL OR d.lease_until < @now)
  AND d.confirmation_id = (
    SELECT e.confirmation_id FROM erp_deliveries e WHERE e.connection = d.connection AND e.order_key = d.order_key AND e.status = 'pending'
    ORDER BY e.confirmation_id LIMIT 1)`;

export function sqliteDeliveries(orm: SqliteOrm, run: Run, raw: Database.Database): DeliveriesRepo {
  let prepared: ReturnType<typeof prepare> | undefined;
  // Lazily: the tables exist only after migrate().
  const st = () => (prepared ??= prepare(raw));

  const withEvents = (ids: number[]): ClaimedDelivery[] => {
    if (ids.length === 0) return [];
    const json = JSON.stringify(ids);
    const rows = (st().byIds.all(json) as RawDelivery[]).map(deliveryOf);
    const events = new Map((st().events.all(json) as RawConfirmation[]).map((e) => [e.id, confirmationOf(e)]));
    return rows.map((delivery) => ({ delivery, event: events.get(delivery.confirmationId) }));
  };

  /**
   * Makes each key's head mark true again after deliveries of it entered or left `pending`: the
   * pending delivery with the lowest feed id is the head, and no other. Three index look-ups a key.
   */
  const refreshHeads = (keys: Iterable<{ connection: string; order_key: string }>) => {
    const seen = new Set<string>();
    for (const k of keys) {
      const id = `${k.connection}\u0000${k.order_key}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const first = st().firstPending.get(k.connection, k.order_key) as { id: number; head: number } | undefined;
      st().clearHeads.run(k.connection, k.order_key, first?.id ?? -1);
      if (first && first.head !== 1) st().markHead.run(first.id);
    }
  };
  const keysOf = (ids: readonly number[]) =>
    st().keysOf.all(JSON.stringify(ids)) as { connection: string; order_key: string }[];

  const lease = (ids: number[], owner: string, until: Date) => {
    if (ids.length > 0) st().lease.run(owner, until.getTime(), JSON.stringify(ids));
  };
  // better-sqlite3 prepares BEGIN/COMMIT for each transaction function: make each once.
  let txs: ReturnType<typeof transactions> | undefined;
  const tx = () => (txs ??= transactions());
  function transactions() {
    return {
      enqueue: raw.transaction((connection: string, rows: readonly NewDelivery[], cursor: number, at: number) => {
        const added: { connection: string; order_key: string }[] = [];
        for (const r of rows) {
          if (
            st().enqueue.run(r.connection, r.confirmationId, r.type, r.orderKey, at, r.feedAt.getTime(), at, at)
              .changes > 0
          )
            added.push({ connection: r.connection, order_key: r.orderKey });
        }
        refreshHeads(added);
        st().setCursor.run(cursor, at, connection);
        return added.length;
      }),
      claim: raw.transaction((q: ClaimQuery) => {
        const found = st()
          .claim(q.connections.length)
          .all({
            now: q.now.getTime(),
            limit: q.limit,
            ...Object.fromEntries(q.connections.map((name, i) => [`c${i}`, name])),
          }) as { id: number }[];
        const picked = found.map((r) => r.id);
        lease(picked, q.owner, q.leaseUntil);
        return picked;
      }),
      finish: raw.transaction((owner: string, results: readonly DeliveryResult[]) => {
        const left: number[] = [];
        for (const r of results) {
          const at = r.at.getTime();
          if (r.probe && r.outcome === 'retry') st().probeFailed.run(r.status, r.error, at, r.id, owner);
          else if (r.outcome === 'delivered') {
            if (st().delivered.run(r.status, at, at, r.id, owner).changes > 0) left.push(r.id);
          } else if (r.outcome === 'dead') {
            if (st().dead.run(r.status, r.error, at, r.id, owner).changes > 0) left.push(r.id);
          } else st().retry.run(r.status, r.error, (r.nextAttemptAt ?? r.at).getTime(), at, r.id, owner);
          st().attempt.run({
            id: r.id,
            at,
            outcome: r.outcome,
            status: r.status,
            latency: Math.round(r.latencyMs),
            response: r.response,
            error: r.error,
            probe: r.probe ? 1 : 0,
          });
        }
        if (left.length > 0) refreshHeads(keysOf(left));
      }),
    };
  }

  return {
    lockCursor: (connection, at) =>
      run(() => {
        st().newCursor.run(connection, at.getTime());
        return (st().cursor.get(connection) as { last: number }).last;
      }),

    enqueue: (connection, rows, cursor, at) => run(() => tx().enqueue(connection, rows, cursor, at.getTime())),

    claim: (q) => run(() => (q.connections.length === 0 ? [] : withEvents(tx().claim(q)))),

    repairHeads: () =>
      run(() =>
        raw.transaction(() => {
          const keys = st().headless.all() as { connection: string; order_key: string }[];
          refreshHeads(keys);
          return keys.length;
        })(),
      ),

    claimProbe: (q) =>
      run(() => {
        const ids = raw.transaction(() => {
          const found = st().probe.get({ now: q.now.getTime(), connection: q.connection }) as
            | { id: number }
            | undefined;
          const picked = found ? [found.id] : [];
          lease(picked, q.owner, q.leaseUntil);
          return picked;
        })();
        return withEvents(ids)[0];
      }),

    finish: (owner, results) => run(() => tx().finish(owner, results)),

    get: (id) => run(() => orm.select().from(d).where(eq(d.id, id)).get()),

    attemptsOf: (id) => run(() => orm.select().from(a).where(eq(a.deliveryId, id)).orderBy(asc(a.id)).all()),

    list: (q) =>
      run(() =>
        orm
          .select()
          .from(d)
          .where(and(deliveryWhere(d, q), q.beforeId ? lt(d.id, q.beforeId) : undefined))
          .orderBy(desc(d.id))
          .limit(q.limit)
          .all(),
      ),

    count: (filter) =>
      run(() => orm.select({ n: sql<number>`count(*)` }).from(d).where(deliveryWhere(d, filter)).get()!.n),

    resend: (filter, at, limit, statuses) =>
      run(() =>
        raw.transaction(() => {
          const ids = orm
            .select({ id: d.id })
            .from(d)
            .where(and(deliveryWhere(d, filter), inArray(d.status, [...statuses])))
            .orderBy(asc(d.id))
            .limit(limit)
            .all()
            .map((r) => r.id);
          if (ids.length > 0) {
            orm
              .update(d)
              .set({
                status: 'pending',
                head: false,
                attempts: 0,
                nextAttemptAt: at,
                leaseOwner: null,
                leaseUntil: null,
                updatedAt: at,
              })
              .where(inArray(d.id, ids))
              .run();
            // A re-sent delivery goes back in line ahead of its key's later pending ones: it may take the head from one of them.
            refreshHeads(keysOf(ids));
          }
          return ids;
        })(),
      ),

    rescheduleNow: (connection, at) =>
      run(() => st().reschedule.run(at.getTime(), at.getTime(), connection, at.getTime()).changes),

    breakers: () => run(() => (st().breakers.all() as RawBreaker[]).map(breakerOf)),

    updateBreaker: (connection, step, at) =>
      run(() =>
        raw.transaction(() => {
          const current = orm.select().from(b).where(eq(b.connection, connection)).get();
          const next: BreakerRow = step(current);
          orm
            .insert(b)
            .values({ connection, ...next, updatedAt: at })
            .onConflictDoUpdate({ target: b.connection, set: { ...next, updatedAt: at } })
            .run();
          return next;
        })(),
      ),

    takeProbe: (connection, now, nextProbeAt) =>
      run(() => st().takeProbe.run({ next: nextProbeAt.getTime(), now: now.getTime(), connection }).changes === 1),

    summary: () =>
      run(() =>
        orm
          .select({ connection: d.connection, status: d.status, n: sql<number>`count(*)` })
          .from(d)
          .groupBy(d.connection, d.status)
          .all(),
      ),

    prune: (before, dryRun) =>
      run(() => {
        const old = and(inArray(d.status, ['delivered', 'dead']), lt(d.updatedAt, before));
        const gone = sql`${a.deliveryId} IN (SELECT ${d.id} FROM ${d} WHERE ${old})`;
        const attemptsWhere = sql`(${lt(a.at, before)}) OR ${gone}`;
        if (dryRun) {
          return {
            deliveries: orm.select({ n: sql<number>`count(*)` }).from(d).where(old).get()!.n,
            attempts: orm.select({ n: sql<number>`count(*)` }).from(a).where(attemptsWhere).get()!.n,
          };
        }
        return raw.transaction(() => {
          const attempts = orm.delete(a).where(attemptsWhere).run().changes;
          const deliveries = orm.delete(d).where(old).run().changes;
          return { deliveries, attempts };
        })();
      }),
  };
}

function prepare(raw: Database.Database) {
  const claims = new Map<number, Database.Statement>();
  return {
    enqueue: raw.prepare(
      `INSERT INTO erp_deliveries (connection, confirmation_id, type, order_key, status, attempts, next_attempt_at, feed_at, created_at, updated_at)
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
      `SELECT id, head FROM erp_deliveries WHERE connection = ? AND order_key = ? AND status = 'pending' ORDER BY confirmation_id LIMIT 1`,
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
      `SELECT * FROM confirmations WHERE id IN (SELECT d.confirmation_id FROM erp_deliveries d WHERE d.id IN (SELECT value FROM json_each(?)))`,
    ),
    newCursor: raw.prepare(
      `INSERT INTO erp_delivery_cursors (connection, last_confirmation_id, updated_at) VALUES (?, 0, ?) ON CONFLICT DO NOTHING`,
    ),
    cursor: raw.prepare(`SELECT last_confirmation_id AS last FROM erp_delivery_cursors WHERE connection = ?`),
    setCursor: raw.prepare(
      `UPDATE erp_delivery_cursors SET last_confirmation_id = ?, updated_at = ? WHERE connection = ?`,
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
interface RawDelivery {
  id: number;
  connection: string;
  confirmation_id: number;
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
interface RawConfirmation {
  id: number;
  connection: string;
  type: Confirmation['type'];
  dedupe_key: string;
  source_event_id: number | null;
  data: string;
  created_at: number;
}
interface RawBreaker {
  connection: string;
  state: DeliveryBreaker['state'];
  failures: number;
  opened_at: number | null;
  next_probe_at: number | null;
  updated_at: number;
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

function deliveryOf(r: RawDelivery): Delivery {
  return {
    id: r.id,
    connection: r.connection,
    confirmationId: r.confirmation_id,
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

function confirmationOf(r: RawConfirmation): Confirmation {
  return {
    id: r.id,
    connection: r.connection,
    type: r.type,
    dedupeKey: r.dedupe_key,
    sourceEventId: r.source_event_id,
    data: JSON.parse(r.data) as Record<string, unknown>,
    createdAt: new Date(r.created_at),
  };
}

function breakerOf(r: RawBreaker): DeliveryBreaker {
  return {
    connection: r.connection,
    state: r.state,
    failures: r.failures,
    openedAt: date(r.opened_at),
    nextProbeAt: date(r.next_probe_at),
    updatedAt: new Date(r.updated_at),
  };
}
