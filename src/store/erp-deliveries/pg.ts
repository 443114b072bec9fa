import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { erpDeliveryAttempts as a, erpDeliveryCursors as c, erpDeliveries as d } from '../pg/delivery-schema.js';
import { feedEntries } from '../pg/schema.js';
import type { ClaimedDelivery, ErpDeliveriesRepo } from './contract.js';
import { deliveryWhere } from './filter.js';
import { pgBreakers } from './pg-breakers.js';
import { claimable, FIRST, lockKeys, refreshHeads } from './pg-order.js';

type WithTx = <T>(fn: (orm: PgOrm) => Promise<T>) => Promise<T>;

export function pgErpDeliveries(orm: PgOrm, inTransaction: boolean, withTx: WithTx): ErpDeliveriesRepo {
  const tx = <T>(fn: (o: PgOrm) => Promise<T>) => (inTransaction ? fn(orm) : withTx(fn));

  const withEvents = async (o: PgOrm, ids: number[]): Promise<ClaimedDelivery[]> => {
    if (ids.length === 0) return [];
    const rows = await o.select().from(d).where(inArray(d.id, ids)).orderBy(asc(d.id));
    const events = await o
      .select()
      .from(feedEntries)
      .where(
        inArray(
          feedEntries.id,
          rows.map((r) => r.feedEntryId),
        ),
      );
    const byId = new Map(events.map((e) => [e.id, e]));
    return rows.map((delivery) => ({ delivery, event: byId.get(delivery.feedEntryId) }));
  };

  const leased = async (o: PgOrm, candidates: ReturnType<typeof sql>, owner: string, until: Date) => {
    const result = await o.execute<{ id: string | number }>(sql`
      UPDATE erp_deliveries SET lease_owner = ${owner}, lease_until = ${until}
      WHERE id IN (${candidates}) RETURNING id`);
    return result.rows.map((r) => Number(r.id));
  };

  return {
    lockCursor: async (connection, at) => {
      await orm.insert(c).values({ connection, lastFeedEntryId: 0, updatedAt: at }).onConflictDoNothing();
      const result = await orm.execute<{ last_feed_entry_id: string | number }>(
        sql`SELECT last_feed_entry_id FROM erp_delivery_cursors WHERE connection = ${connection} FOR UPDATE`,
      );
      return Number(result.rows[0]!.last_feed_entry_id);
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
        await o.update(c).set({ lastFeedEntryId: cursor, updatedAt: at }).where(eq(c.connection, connection));
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

    ...pgBreakers(orm, tx),

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
