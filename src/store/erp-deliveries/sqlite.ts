import type Database from 'better-sqlite3';
import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import { erpDeliveryAttempts as a, erpDeliveryBreakers as b, erpDeliveries as d } from '../sqlite/delivery-schema.js';
import type { Run } from '../sqlite/runner.js';
import type {
  BreakerRow,
  ClaimedDelivery,
  ClaimQuery,
  DeliveryResult,
  ErpDeliveriesRepo,
  NewDelivery,
} from './contract.js';
import { deliveryWhere } from './filter.js';
import {
  breakerOf,
  deliveryOf,
  feedEntryOf,
  prepare,
  type RawBreaker,
  type RawDelivery,
  type RawFeedEntry,
} from './sqlite-statements.js';

export function sqliteErpDeliveries(orm: SqliteOrm, run: Run, raw: Database.Database): ErpDeliveriesRepo {
  let prepared: ReturnType<typeof prepare> | undefined;
  // Lazily: the tables exist only after migrate().
  const st = () => (prepared ??= prepare(raw));

  const withEvents = (ids: number[]): ClaimedDelivery[] => {
    if (ids.length === 0) return [];
    const json = JSON.stringify(ids);
    const rows = (st().byIds.all(json) as RawDelivery[]).map(deliveryOf);
    const events = new Map((st().events.all(json) as RawFeedEntry[]).map((e) => [e.id, feedEntryOf(e)]));
    return rows.map((delivery) => ({ delivery, event: events.get(delivery.feedEntryId) }));
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
            st().enqueue.run(r.connection, r.feedEntryId, r.type, r.orderKey, at, r.feedAt.getTime(), at, at).changes >
            0
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
