import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import {
  erpDeliveryAttempts as a,
  erpDeliveryBreakers as b,
  erpDeliveryCursors as c,
  erpDeliveries as d,
} from '../pg/delivery-schema.js';
import { confirmations } from '../pg/schema.js';
import type { BreakerRow, ClaimedDelivery, DeliveriesRepo } from './contract.js';
import { deliveryWhere } from './filter.js';

type WithTx = <T>(fn: (orm: PgOrm) => Promise<T>) => Promise<T>;

// The claim's order rule: due, not leased, and no earlier pending delivery of the same key
// (leased or waiting for its retry) exists. SKIP LOCKED lets two processes claim side by side;
// a delivery being finished by another process is skipped, never waited for. Only heads are read
// (erp_deliveries_ready); the key's lowest pending feed id is still checked, as the rule itself
// (sqlite/deliveries.ts). On a table not yet analyzed (autovacuum looks once a minute, and the
// table grows fast in an outage) the planner turned the NOT EXISTS of this check into an
// anti-join, and a min() into a scan of erp_deliveries_list, each reading every pending delivery
// of the connection per head (0.9 s a claim with 5,000 pending). The key's first pending one, in
// erp_deliveries_pending's own order, is one index-only step whatever the statistics.
const claimable = (now: Date) => sql`
  d.status = 'pending' AND d.head AND (d.lease_until IS NULL OR d.lease_until < ${now})
  AND d.confirmation_id = (
    SELECT e.confirmation_id FROM erp_deliveries e WHERE e.connection = d.connection AND e.order_key = d.order_key AND e.status = 'pending'
    ORDER BY e.confirmation_id LIMIT 1)`;

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
const FIRST = sql`(SELECT e.id FROM erp_deliveries e WHERE e.connection = key.c AND e.order_key = key.k AND e.status = 'pending' ORDER BY e.confirmation_id LIMIT 1)`;

/**
 * Locks the keys of these deliveries until commit, in one order for every transaction (no
 * deadlock between two). Taken before a transaction moves deliveries into or out of `pending` and
 * refreshes their keys' heads, and before it updates any delivery of those keys: two processes
 * doing so for one key at once (one finishing the head while the other enqueues behind it) would
 * each miss the other's uncommitted change and leave the key without a head, so the second waits,
 * then sees the first's commit.
 */
async function lockKeys(o: PgOrm, ids: readonly number[]): Promise<void> {
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
async function refreshHeads(o: PgOrm, ids: readonly number[]): Promise<void> {
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

export function pgDeliveries(orm: PgOrm, inTransaction: boolean, withTx: WithTx): DeliveriesRepo {
  const tx = <T>(fn: (o: PgOrm) => Promise<T>) => (inTransaction ? fn(orm) : withTx(fn));

  const withEvents = async (o: PgOrm, ids: number[]): Promise<ClaimedDelivery[]> => {
    if (ids.length === 0) return [];
    const rows = await o.select().from(d).where(inArray(d.id, ids)).orderBy(asc(d.id));
    const events = await o
      .select()
      .from(confirmations)
      .where(
        inArray(
          confirmations.id,
          rows.map((r) => r.confirmationId),
        ),
      );
    const byId = new Map(events.map((e) => [e.id, e]));
    return rows.map((delivery) => ({ delivery, event: byId.get(delivery.confirmationId) }));
  };

  const leased = async (o: PgOrm, candidates: ReturnType<typeof sql>, owner: string, until: Date) => {
    const result = await o.execute<{ id: string | number }>(sql`
      UPDATE erp_deliveries SET lease_owner = ${owner}, lease_until = ${until}
      WHERE id IN (${candidates}) RETURNING id`);
    return result.rows.map((r) => Number(r.id));
  };

  return {
    lockCursor: async (connection, at) => {
      await orm.insert(c).values({ connection, lastConfirmationId: 0, updatedAt: at }).onConflictDoNothing();
      const result = await orm.execute<{ last_confirmation_id: string | number }>(
        sql`SELECT last_confirmation_id FROM erp_delivery_cursors WHERE connection = ${connection} FOR UPDATE`,
      );
      return Number(result.rows[0]!.last_confirmation_id);
    },

    enqueue: (connection, rows, cursor, at) =>
      tx(async (o) => {
        let added = 0;
        if (rows.length > 0) {
          const inserted = await o
            .insert(d)
            .values(
              rows.map((r) => ({
                ...r,
                status: 'pending' as const,
                attempts: 0,
                nextAttemptAt: at,
                createdAt: at,
                updatedAt: at,
              })),
            )
            .onConflictDoNothing()
            .returning({ id: d.id });
          added = inserted.length;
          const ids = inserted.map((r) => r.id);
          await lockKeys(o, ids);
          await refreshHeads(o, ids);
        }
        await o.update(c).set({ lastConfirmationId: cursor, updatedAt: at }).where(eq(c.connection, connection));
        return added;
      }),

    claim: async (q) => {
      if (q.connections.length === 0) return [];
      const names = sql.join(
        q.connections.map((n) => sql`${n}`),
        sql`, `,
      );
      const ids = await leased(
        orm,
        sql`SELECT d.id FROM erp_deliveries d
            WHERE d.next_attempt_at <= ${q.now} AND d.connection IN (${names}) AND ${claimable(q.now)}
            ORDER BY d.next_attempt_at, d.id LIMIT ${q.limit} FOR UPDATE SKIP LOCKED`,
        q.owner,
        q.leaseUntil,
      );
      return withEvents(orm, ids);
    },

    repairHeads: () =>
      tx(async (o) => {
        const found = await o.execute<{ id: string | number }>(sql`
          SELECT ${FIRST} AS id FROM (
            SELECT connection AS c, order_key AS k FROM erp_deliveries WHERE status = 'pending'
            EXCEPT SELECT connection, order_key FROM erp_deliveries WHERE status = 'pending' AND head) key`);
        const ids = found.rows.map((r) => Number(r.id));
        await lockKeys(o, ids);
        await refreshHeads(o, ids);
        return ids.length;
      }),

    claimProbe: async (q) => {
      const ids = await leased(
        orm,
        sql`SELECT d.id FROM erp_deliveries d WHERE d.connection = ${q.connection} AND ${claimable(q.now)}
            ORDER BY d.next_attempt_at, d.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        q.owner,
        q.leaseUntil,
      );
      return (await withEvents(orm, ids))[0];
    },

    finish: (owner, results) =>
      tx(async (o) => {
        const leaving = results.filter((r) => r.outcome === 'delivered' || r.outcome === 'dead').map((r) => r.id);
        // Every result's key, retries too, before any update: a transaction waiting for a key's
        // lock then holds no row of it that a resend's refresh (holding that lock) would update.
        await lockKeys(
          o,
          results.map((r) => r.id),
        );
        for (const r of results) {
          const mine = and(eq(d.id, r.id), eq(d.leaseOwner, owner));
          const base = { lastStatus: r.status, updatedAt: r.at, leaseOwner: null, leaseUntil: null };
          if (r.probe && r.outcome === 'retry')
            await o
              .update(d)
              .set({ ...base, lastError: r.error })
              .where(mine);
          else if (r.outcome === 'delivered')
            await o
              .update(d)
              .set({
                ...base,
                status: 'delivered',
                head: false,
                attempts: sql`${d.attempts} + 1`,
                lastError: null,
                deliveredAt: r.at,
              })
              .where(mine);
          else if (r.outcome === 'dead')
            await o
              .update(d)
              .set({ ...base, status: 'dead', head: false, attempts: sql`${d.attempts} + 1`, lastError: r.error })
              .where(mine);
          else
            await o
              .update(d)
              .set({
                ...base,
                attempts: sql`${d.attempts} + 1`,
                lastError: r.error,
                nextAttemptAt: r.nextAttemptAt ?? r.at,
              })
              .where(mine);
        }
        if (results.length > 0) {
          await o.execute(sql`
            INSERT INTO erp_delivery_attempts (delivery_id, connection, at, outcome, status, latency_ms, response, error, probe)
            SELECT v.id, x.connection, v.at, v.outcome, v.status, v.latency, v.response, v.error, v.probe
            FROM (VALUES ${sql.join(
              results.map(
                (r) =>
                  sql`(${r.id}::bigint, ${r.at}::timestamptz, ${r.outcome}::text, ${r.status}::int, ${Math.round(r.latencyMs)}::int, ${r.response}::text, ${r.error}::text, ${r.probe}::boolean)`,
              ),
              sql`, `,
            )}) AS v(id, at, outcome, status, latency, response, error, probe)
            JOIN erp_deliveries x ON x.id = v.id`);
        }
        await refreshHeads(o, leaving);
      }),

    get: async (id) => (await orm.select().from(d).where(eq(d.id, id)))[0],

    attemptsOf: (id) => orm.select().from(a).where(eq(a.deliveryId, id)).orderBy(asc(a.id)),

    list: (q) =>
      orm
        .select()
        .from(d)
        .where(and(deliveryWhere(d, q), q.beforeId ? lt(d.id, q.beforeId) : undefined))
        .orderBy(desc(d.id))
        .limit(q.limit),

    count: async (filter) =>
      Number((await orm.select({ n: sql<number>`count(*)` }).from(d).where(deliveryWhere(d, filter)))[0]!.n),

    resend: (filter, at, limit, statuses) =>
      tx(async (o) => {
        const rows = await o
          .select({ id: d.id })
          .from(d)
          .where(and(deliveryWhere(d, filter), inArray(d.status, [...statuses])))
          .orderBy(asc(d.id))
          .limit(limit);
        if (rows.length === 0) return [];
        await lockKeys(
          o,
          rows.map((r) => r.id),
        );
        // The status again, under the keys' locks: a resend of the same delivery by another
        // process may have committed since the read, and the delivery be in flight already.
        const resent = await o
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
          .where(
            and(
              inArray(
                d.id,
                rows.map((r) => r.id),
              ),
              inArray(d.status, [...statuses]),
            ),
          )
          .returning({ id: d.id });
        const ids = resent.map((r) => r.id).sort((x, y) => x - y);
        // A re-sent delivery goes back in line ahead of its key's later pending ones: it may take the head from one of them.
        await refreshHeads(o, ids);
        return ids;
      }),

    rescheduleNow: async (connection, at) => {
      // Rows another transaction holds are skipped, never waited for, so this statement cannot
      // deadlock with it. A finish or a resend sets that row's schedule itself; a row held only for
      // its head mark (another key's resend) keeps its retry time, a delay within its schedule.
      const r = await orm
        .update(d)
        .set({ nextAttemptAt: at, updatedAt: at })
        .where(
          sql`${d.id} IN (SELECT id FROM erp_deliveries WHERE connection = ${connection} AND status = 'pending' AND next_attempt_at > ${at} FOR UPDATE SKIP LOCKED)`,
        )
        .returning({ id: d.id });
      return r.length;
    },

    breakers: () => orm.select().from(b),

    updateBreaker: (connection, step, at) =>
      tx(async (o) => {
        await o.insert(b).values({ connection, state: 'closed', failures: 0, updatedAt: at }).onConflictDoNothing();
        const result = await o.execute<{
          state: BreakerRow['state'];
          failures: number;
          opened_at: Date | string | null;
          next_probe_at: Date | string | null;
        }>(
          sql`SELECT state, failures, opened_at, next_probe_at FROM erp_delivery_breakers WHERE connection = ${connection} FOR UPDATE`,
        );
        const row = result.rows[0]!;
        const date = (v: Date | string | null) => (v === null ? null : new Date(v));
        const next = step({
          state: row.state,
          failures: Number(row.failures),
          openedAt: date(row.opened_at),
          nextProbeAt: date(row.next_probe_at),
        });
        await o
          .update(b)
          .set({ ...next, updatedAt: at })
          .where(eq(b.connection, connection));
        return next;
      }),

    takeProbe: async (connection, now, nextProbeAt) => {
      const r = await orm
        .update(b)
        .set({ nextProbeAt, updatedAt: now })
        .where(and(eq(b.connection, connection), eq(b.state, 'open'), sql`${b.nextProbeAt} <= ${now}`))
        .returning({ connection: b.connection });
      return r.length === 1;
    },

    summary: async () =>
      (
        await orm
          .select({ connection: d.connection, status: d.status, n: sql<number>`count(*)` })
          .from(d)
          .groupBy(d.connection, d.status)
      ).map((r) => ({
        ...r,
        n: Number(r.n),
      })),

    prune: (before, dryRun) =>
      tx(async (o) => {
        const old = and(inArray(d.status, ['delivered', 'dead']), lt(d.updatedAt, before));
        const attemptsWhere = sql`(${lt(a.at, before)}) OR ${a.deliveryId} IN (SELECT ${d.id} FROM ${d} WHERE ${old})`;
        if (dryRun) {
          const [n1] = await o.select({ n: sql<number>`count(*)` }).from(d).where(old);
          const [n2] = await o.select({ n: sql<number>`count(*)` }).from(a).where(attemptsWhere);
          return { deliveries: Number(n1!.n), attempts: Number(n2!.n) };
        }
        const attempts = (await o.delete(a).where(attemptsWhere).returning({ id: a.id })).length;
        const deliveries = (await o.delete(d).where(old).returning({ id: d.id })).length;
        return { deliveries, attempts };
      }),
  };
}
