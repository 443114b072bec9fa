import { and, asc, desc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { SqliteDatabase, SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import { inboundEvents as t } from '../sqlite/schema.js';
import { type InboundStatus, REOPENABLE } from '../values.js';
import type { InboxFilter, InboxRepo, NewInboundEvent } from './contract.js';
import { countsWithProcessed } from './counts.js';
import { inboxWhere, notProcessed, onlyOpen, receivedWhere } from './filter.js';
import { EVENT_COLUMNS, type EventRow, toEvent } from './sqlite-event-row.js';
import { sqliteInboxHistory } from './sqlite-history.js';

const where = (q: InboxFilter) => inboxWhere(t, q);

/**
 * The index a count is told to read (SQLite's planner, without ANALYZE statistics, guesses): a
 * business code its own index; open statuses (the backlog, quarantined, failed: rare) the partial
 * index of open events; anything else one connection's events, checked row by row.
 */
function countIndex(q: InboxFilter) {
  if (q.businessCode) return sql`INDEXED BY inbound_events_code`;
  if (onlyOpen(q)) return sql`INDEXED BY inbound_events_open`;
  if (q.connection) return sql`INDEXED BY inbound_events_connection`;
  return sql``;
}

/**
 * The webhook receiver's hot statement, one per delivery: plain SQL prepared once on the raw
 * connection (drizzle's placeholder filling and row mapping cost about as much as the insert
 * itself). One statement decides new-or-repeat, so concurrent repeats cannot both insert.
 * Prepared lazily because the table exists only after `migrate()`.
 */
function prepareInsertOrCount<R>(raw: SqliteDatabase['raw'], returning: string) {
  return raw.prepare<InsertParams, R>(
    `INSERT INTO inbound_events (connection, kind, dedupe_key, status, payload, error, request_id, business_code, quarantine_reason, received_at, updated_at, traceparent)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (connection, dedupe_key) DO UPDATE SET duplicates = duplicates + 1, last_duplicate_at = excluded.received_at
     RETURNING ${returning}`,
  );
}

type InsertParams = [
  string,
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
  number,
  string | null,
];

const insertParams = (input: NewInboundEvent): InsertParams => {
  const at = input.at.getTime();
  return [
    input.connection,
    input.kind,
    input.dedupeKey,
    input.status ?? 'received',
    input.payload,
    input.error ?? null,
    input.requestId ?? null,
    input.businessCode ?? null,
    input.quarantineReason ?? null,
    at,
    at,
    input.traceparent ?? null,
  ];
};

interface LeanRow {
  id: number;
  status: InboundStatus;
  duplicates: number;
}

export function sqliteInbox(orm: SqliteOrm, run: Run, raw: SqliteDatabase['raw']): InboxRepo {
  let full: ReturnType<typeof prepareInsertOrCount<EventRow>> | undefined;
  let lean: ReturnType<typeof prepareInsertOrCount<LeanRow>> | undefined;
  /**
   * A time range as the id range it spans (read from the received_at index alone), so that lists
   * and counts read one connection's events in that range, not every event of the connection.
   * Undefined without a time range; null when nothing was received in it.
   */
  const idSpan = (q: InboxFilter) => {
    if (!q.receivedFrom && !q.receivedTo) return undefined;
    const bounds = orm
      .select({ lo: sql<number | null>`min(${t.id})`, hi: sql<number | null>`max(${t.id})` })
      .from(t)
      .where(receivedWhere(t, q))
      .get()!;
    if (bounds.lo === null || bounds.hi === null) return null;
    return and(gte(t.id, bounds.lo), lte(t.id, bounds.hi));
  };
  const countMatching = (q: InboxFilter, cap?: number) => {
    const span = idSpan(q);
    if (span === null) return 0;
    const matching = sql`SELECT 1 FROM inbound_events ${countIndex(q)} WHERE ${and(where(q), span) ?? sql`1`}${cap === undefined ? sql`` : sql` LIMIT ${cap}`}`;
    return orm.get<{ n: number }>(sql`SELECT count(*) AS n FROM (${matching})`).n;
  };
  return {
    ...sqliteInboxHistory(orm, run),
    record: (input) =>
      run(() => {
        full ??= prepareInsertOrCount<EventRow>(raw, EVENT_COLUMNS);
        const event = toEvent(full.get(...insertParams(input))!);
        return { event, duplicate: event.duplicates > 0 };
      }),

    recordMany: (inputs) =>
      run(() => {
        lean ??= prepareInsertOrCount<LeanRow>(raw, 'id, status, duplicates');
        // One synchronous statement per event is already cheap here; each result then shows its
        // row as the whole batch left it (repeated keys counted to the end).
        const results = inputs.map((input) => {
          const event = lean!.get(...insertParams(input))!;
          return { event, duplicate: event.duplicates > 0 };
        });
        const last = new Map(results.map((r) => [r.event.id, r.event]));
        return results.map((r) => ({ event: last.get(r.event.id)!, duplicate: r.duplicate }));
      }),

    get: (id) => run(() => orm.select().from(t).where(eq(t.id, id)).get()),

    findByKey: (connection, dedupeKey) =>
      run(() =>
        orm
          .select()
          .from(t)
          .where(and(eq(t.connection, connection), eq(t.dedupeKey, dedupeKey)))
          .get(),
      ),

    list: (q) =>
      run(() => {
        const span = idSpan(q);
        if (span === null) return [];
        return orm
          .select()
          .from(t)
          .where(and(where(q), span, q.beforeId ? lt(t.id, q.beforeId) : undefined))
          .orderBy(desc(t.id))
          .limit(q.limit)
          .all();
      }),

    // The index named, not left to the planner: without ANALYZE statistics it guesses.
    count: (q) => run(() => countMatching(q)),

    countUpTo: (q, cap) => run(() => countMatching(q, cap)),

    ids: (q, limit) =>
      run(() =>
        orm
          .select({ id: t.id })
          .from(t)
          .where(where(q))
          .orderBy(asc(t.id))
          .limit(limit)
          .all()
          .map((r) => r.id),
      ),

    recordAttempt: (id, at) =>
      run(() => {
        const row = orm
          .update(t)
          .set({ attempts: sql`${t.attempts} + 1`, updatedAt: at })
          .where(eq(t.id, id))
          .returning({ attempts: t.attempts })
          .get();
        return row?.attempts ?? 0;
      }),

    markProcessed: (id, at) =>
      run(() => {
        orm
          .update(t)
          .set({ status: 'processed', error: null, quarantineReason: null, processedAt: at, updatedAt: at })
          .where(eq(t.id, id))
          .run();
      }),

    markFailed: (id, error, at) =>
      run(() => {
        orm
          .update(t)
          .set({ status: 'failed', error, attempts: sql`${t.attempts} + 1`, updatedAt: at })
          .where(eq(t.id, id))
          .run();
      }),

    noteError: (id, error, at) =>
      run(() => {
        orm
          .update(t)
          .set({ error, attempts: sql`${t.attempts} + 1`, updatedAt: at })
          .where(eq(t.id, id))
          .run();
      }),

    reopen: (id, at) =>
      run(() => {
        const res = orm
          .update(t)
          .set({ status: 'received', updatedAt: at })
          .where(and(eq(t.id, id), inArray(t.status, [...REOPENABLE])))
          .run();
        return res.changes > 0;
      }),

    markQuarantined: (id, reason, at) =>
      run(
        () =>
          orm
            .update(t)
            .set({ status: 'quarantined', quarantineReason: reason, updatedAt: at })
            .where(and(eq(t.id, id), eq(t.status, 'received')))
            .run().changes > 0,
      ),

    markRejectedByErp: (id, message, at) =>
      run(
        () =>
          orm
            .update(t)
            .set({ status: 'rejected_by_erp', error: message, updatedAt: at })
            .where(and(eq(t.id, id), inArray(t.status, ['received', 'rejected_by_erp'])))
            .run().changes > 0,
      ),

    quarantinedCounts: () =>
      run(() =>
        orm
          .select({ connection: t.connection, kind: t.kind, n: sql<number>`count(*)` })
          .from(t)
          .where(where({ status: 'quarantined' }))
          .groupBy(t.connection, t.kind)
          .all(),
      ),

    countByStatus: () =>
      run(() => {
        const open = orm
          .select({ status: t.status, n: sql<number>`count(*)` })
          .from(t)
          .where(notProcessed(t))
          .groupBy(t.status)
          .all();
        return countsWithProcessed(open, orm.get<{ n: number }>(sql`SELECT count(*) AS n FROM inbound_events`).n);
      }),
  };
}
