import { and, asc, desc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { inboundEvents as t } from '../pg/schema.js';
import { REOPENABLE } from '../values.js';
import type { InboundEvent, InboxFilter, InboxRepo } from './contract.js';
import { countsWithProcessed } from './counts.js';
import { EVENT_COLUMNS, eventFromRow, type RawEventRow } from './event-row.js';
import { inboxWhere, notProcessed, receivedWhere } from './filter.js';
import { recordManyWithJobs } from './pg-ack.js';
import { pgInboxHistory } from './pg-history.js';
import { RECORD_MANY_SQL, type RecordManyRow, recordManyBatch } from './pg-record-many.js';

const where = (q: InboxFilter) => inboxWhere(t, q);

/**
 * The webhook receiver's hot statement as a named prepared statement: Postgres parses it once per
 * connection, and no query builder runs per delivery (building it cost more CPU than the insert).
 * ON CONFLICT takes the row lock, so concurrent repeats serialize and each counts once.
 */
const RECORD = {
  name: 'wms_sync_inbox_record',
  text: `INSERT INTO inbound_events (connection, kind, dedupe_key, status, payload, error, request_id, received_at, updated_at, business_code, quarantine_reason, traceparent)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11)
         ON CONFLICT (connection, dedupe_key) DO UPDATE
           SET duplicates = inbound_events.duplicates + 1, last_duplicate_at = excluded.received_at
         RETURNING ${EVENT_COLUMNS}`,
};

/** The batch form (inbox-record-many.ts); inbox-ack.ts runs the same upsert together with its jobs. */
const RECORD_MANY = { name: 'wms_sync_inbox_record_many', text: RECORD_MANY_SQL };

/** inbound_events as pg returns it: the bigint id as a string, times as Dates. */
export type RecordRow = RawEventRow<string, Date>;

const same = (d: Date) => d;
export const toEvent = (r: RecordRow): InboundEvent => eventFromRow(r, Number, same);

export function pgInbox(orm: PgOrm): InboxRepo {
  return {
    ...pgInboxHistory(orm),
    record: async (input) => {
      const { rows } = await orm.$client.query<RecordRow>({
        ...RECORD,
        values: [
          input.connection,
          input.kind,
          input.dedupeKey,
          input.status ?? 'received',
          input.payload,
          input.error ?? null,
          input.requestId ?? null,
          input.at,
          input.businessCode ?? null,
          input.quarantineReason ?? null,
          input.traceparent ?? null,
        ],
      });
      const event = toEvent(rows[0]!);
      return { event, duplicate: event.duplicates > 0 };
    },

    recordMany: async (inputs) => {
      if (inputs.length === 0) return [];
      const batch = recordManyBatch(inputs);
      const { rows } = await orm.$client.query<RecordManyRow>({ ...RECORD_MANY, values: batch.values });
      return batch.answer(rows);
    },

    recordManyWithJobs: (inputs, jobs) => recordManyWithJobs(orm.$client, inputs, jobs),

    get: async (id) => (await orm.select().from(t).where(eq(t.id, id)))[0],

    findByKey: async (connection, dedupeKey) =>
      (
        await orm
          .select()
          .from(t)
          .where(and(eq(t.connection, connection), eq(t.dedupeKey, dedupeKey)))
      )[0],

    list: async (q) => {
      // A time range becomes the id range it spans (from the received_at index), so the page is
      // read newest first within it instead of from the newest event of all.
      let span;
      if (q.receivedFrom || q.receivedTo) {
        // The ids are read from inbound_events_received (received_at, id) alone; OFFSET 0 keeps the
        // planner from turning min/max into walks of the primary key, which pass every event
        // outside the range first (50,000 for a day in the middle of 100,000).
        // (Raw SQL: the query builder leaves out an OFFSET of 0.)
        const { rows } = await orm.execute<{ lo: string | null; hi: string | null }>(
          sql`SELECT min(id) AS lo, max(id) AS hi FROM (SELECT ${t.id} AS id FROM ${t} WHERE ${receivedWhere(t, q)} OFFSET 0) AS in_range`,
        );
        const bounds = rows[0];
        if (!bounds || bounds.lo === null || bounds.hi === null) return [];
        span = and(gte(t.id, Number(bounds.lo)), lte(t.id, Number(bounds.hi)));
      }
      return orm
        .select()
        .from(t)
        .where(and(where(q), span, q.beforeId ? lt(t.id, q.beforeId) : undefined))
        .orderBy(desc(t.id))
        .limit(q.limit);
    },

    count: async (q) => Number((await orm.select({ n: sql<string>`count(*)` }).from(t).where(where(q)))[0]!.n),

    countUpTo: async (q, cap) => {
      const matching = orm
        .select({ one: sql`1`.as('one') })
        .from(t)
        .where(where(q))
        .limit(cap)
        .as('matching');
      return Number((await orm.select({ n: sql<string>`count(*)` }).from(matching))[0]!.n);
    },

    ids: async (q, limit) =>
      (await orm.select({ id: t.id }).from(t).where(where(q)).orderBy(asc(t.id)).limit(limit)).map((r) => r.id),

    recordAttempt: async (id, at) => {
      const [row] = await orm
        .update(t)
        .set({ attempts: sql`${t.attempts} + 1`, updatedAt: at })
        .where(eq(t.id, id))
        .returning({ attempts: t.attempts });
      return row?.attempts ?? 0;
    },

    markProcessed: async (id, at) => {
      await orm
        .update(t)
        .set({ status: 'processed', error: null, quarantineReason: null, processedAt: at, updatedAt: at })
        .where(eq(t.id, id));
    },

    markFailed: async (id, error, at) => {
      await orm
        .update(t)
        .set({ status: 'failed', error, attempts: sql`${t.attempts} + 1`, updatedAt: at })
        .where(eq(t.id, id));
    },

    noteError: async (id, error, at) => {
      await orm
        .update(t)
        .set({ error, attempts: sql`${t.attempts} + 1`, updatedAt: at })
        .where(eq(t.id, id));
    },

    reopen: async (id, at) => {
      const rows = await orm
        .update(t)
        .set({ status: 'received', updatedAt: at })
        .where(and(eq(t.id, id), inArray(t.status, [...REOPENABLE])))
        .returning({ id: t.id });
      return rows.length > 0;
    },

    markQuarantined: async (id, reason, at) => {
      const rows = await orm
        .update(t)
        .set({ status: 'quarantined', quarantineReason: reason, updatedAt: at })
        .where(and(eq(t.id, id), eq(t.status, 'received')))
        .returning({ id: t.id });
      return rows.length > 0;
    },

    markRejectedByErp: async (id, message, at) => {
      const rows = await orm
        .update(t)
        .set({ status: 'rejected_by_erp', error: message, updatedAt: at })
        .where(and(eq(t.id, id), inArray(t.status, ['received', 'rejected_by_erp'])))
        .returning({ id: t.id });
      return rows.length > 0;
    },

    quarantinedCounts: async () => {
      const rows = await orm
        .select({ connection: t.connection, kind: t.kind, n: sql<string>`count(*)` })
        .from(t)
        .where(where({ status: 'quarantined' }))
        .groupBy(t.connection, t.kind);
      return rows.map((r) => ({ ...r, n: Number(r.n) }));
    },

    countByStatus: async () => {
      const open = await orm
        .select({ status: t.status, n: sql<string>`count(*)` })
        .from(t)
        .where(notProcessed(t))
        .groupBy(t.status);
      const [total] = await orm.select({ n: sql<string>`count(*)` }).from(t);
      return countsWithProcessed(open, total!.n);
    },
  };
}
