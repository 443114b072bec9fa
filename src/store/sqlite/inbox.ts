import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { InboxRepo, NewInboundEvent } from '../types.js';
import { countsOf } from '../counts.js';
import type { SqliteOrm } from './database.js';
import type { Run } from './runner.js';
import { inboundEvents as t } from './schema.js';

const p = (name: string) => sql.placeholder(name);

/**
 * The webhook receiver's hot statement, prepared once: compiling it on every call cost about
 * 8 times the insert itself. One statement decides new-or-repeat, so concurrent repeats cannot
 * both insert. Prepared lazily because the table exists only after `migrate()`.
 */
function insertOrCount(orm: SqliteOrm) {
  return orm
    .insert(t)
    .values({
      connection: p('connection'),
      kind: p('kind'),
      dedupeKey: p('dedupeKey'),
      status: p('status'),
      payload: p('payload'),
      error: p('error'),
      requestId: p('requestId'),
      receivedAt: p('at'),
      updatedAt: p('at'),
    })
    .onConflictDoUpdate({
      target: [t.connection, t.dedupeKey],
      set: { duplicates: sql`${t.duplicates} + 1`, lastDuplicateAt: sql`excluded.received_at` },
    });
}

function prepareRecord(orm: SqliteOrm) {
  return insertOrCount(orm).returning().prepare();
}

function prepareRecordLean(orm: SqliteOrm) {
  return insertOrCount(orm).returning({ id: t.id, status: t.status, duplicates: t.duplicates }).prepare();
}

export function sqliteInbox(orm: SqliteOrm, run: Run): InboxRepo {
  let full: ReturnType<typeof prepareRecord> | undefined;
  let lean: ReturnType<typeof prepareRecordLean> | undefined;
  const params = (input: NewInboundEvent) => ({
    connection: input.connection,
    kind: input.kind,
    dedupeKey: input.dedupeKey,
    status: input.status ?? 'received',
    payload: input.payload,
    error: input.error ?? null,
    requestId: input.requestId ?? null,
    at: input.at,
  });
  return {
    record: (input) =>
      run(() => {
        full ??= prepareRecord(orm);
        const event = full.get(params(input))!;
        return { event, duplicate: event.duplicates > 0 };
      }),

    recordMany: (inputs) =>
      run(() => {
        lean ??= prepareRecordLean(orm);
        // One synchronous statement per event is already cheap here; each result then shows its
        // row as the whole batch left it (repeated keys counted to the end).
        const results = inputs.map((input) => {
          const event = lean!.get(params(input))!;
          return { event, duplicate: event.duplicates > 0 };
        });
        const last = new Map(results.map((r) => [r.event.id, r.event]));
        return results.map((r) => ({ event: last.get(r.event.id)!, duplicate: r.duplicate }));
      }),

    get: (id) => run(() => orm.select().from(t).where(eq(t.id, id)).get()),

    findByKey: (connection, dedupeKey) =>
      run(() => orm.select().from(t).where(and(eq(t.connection, connection), eq(t.dedupeKey, dedupeKey))).get()),

    list: (q) =>
      run(() =>
        orm
          .select()
          .from(t)
          .where(
            and(
              q.connection ? eq(t.connection, q.connection) : undefined,
              q.status ? eq(t.status, q.status) : undefined,
              q.kind ? eq(t.kind, q.kind) : undefined,
              q.beforeId ? lt(t.id, q.beforeId) : undefined,
            ),
          )
          .orderBy(desc(t.id))
          .limit(q.limit)
          .all(),
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
        orm.update(t).set({ status: 'processed', error: null, processedAt: at, updatedAt: at }).where(eq(t.id, id)).run();
      }),

    markFailed: (id, error, at) =>
      run(() => {
        orm.update(t).set({ status: 'failed', error, updatedAt: at }).where(eq(t.id, id)).run();
      }),

    noteError: (id, error, at) =>
      run(() => {
        orm.update(t).set({ error, updatedAt: at }).where(eq(t.id, id)).run();
      }),

    reopen: (id, at) =>
      run(() => {
        const res = orm
          .update(t)
          .set({ status: 'received', updatedAt: at })
          .where(and(eq(t.id, id), inArray(t.status, ['failed', 'processed'])))
          .run();
        return res.changes > 0;
      }),

    countByStatus: () =>
      run(() => {
        const rows = orm.select({ status: t.status, n: sql<number>`count(*)` }).from(t).groupBy(t.status).all();
        return countsOf(rows);
      }),
  };
}
