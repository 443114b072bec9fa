import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { countsOf } from '../counts.js';
import type { InboundEvent, InboxRepo } from '../types.js';
import type { PgOrm } from './database.js';
import { inboundEvents as t } from './schema.js';

/**
 * The webhook receiver's hot statement as a named prepared statement: Postgres parses it once per
 * connection, and no query builder runs per delivery (building it cost more CPU than the insert).
 * ON CONFLICT takes the row lock, so concurrent repeats serialize and each counts once.
 */
const RECORD = {
  name: 'wms_sync_inbox_record',
  text: `INSERT INTO inbound_events (connection, kind, dedupe_key, status, payload, error, request_id, received_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (connection, dedupe_key) DO UPDATE
           SET duplicates = inbound_events.duplicates + 1, last_duplicate_at = excluded.received_at
         RETURNING id, connection, kind, dedupe_key, status, payload, error, attempts, duplicates, request_id,
                   received_at, last_duplicate_at, processed_at, updated_at`,
};

interface RecordRow {
  id: string;
  connection: string;
  kind: string;
  dedupe_key: string;
  status: InboundEvent['status'];
  payload: string;
  error: string | null;
  attempts: number;
  duplicates: number;
  request_id: string | null;
  received_at: Date;
  last_duplicate_at: Date | null;
  processed_at: Date | null;
  updated_at: Date;
}

function toEvent(r: RecordRow): InboundEvent {
  return {
    id: Number(r.id),
    connection: r.connection,
    kind: r.kind,
    dedupeKey: r.dedupe_key,
    status: r.status,
    payload: r.payload,
    error: r.error,
    attempts: r.attempts,
    duplicates: r.duplicates,
    requestId: r.request_id,
    receivedAt: r.received_at,
    lastDuplicateAt: r.last_duplicate_at,
    processedAt: r.processed_at,
    updatedAt: r.updated_at,
  };
}

export function pgInbox(orm: PgOrm): InboxRepo {
  return {
    record: async (input) => {
      const { rows } = await orm.$client.query<RecordRow>({
        ...RECORD,
        values: [input.connection, input.kind, input.dedupeKey, input.status ?? 'received', input.payload, input.error ?? null, input.requestId ?? null, input.at],
      });
      const event = toEvent(rows[0]!);
      return { event, duplicate: event.duplicates > 0 };
    },

    get: async (id) => (await orm.select().from(t).where(eq(t.id, id)))[0],

    findByKey: async (connection, dedupeKey) =>
      (await orm.select().from(t).where(and(eq(t.connection, connection), eq(t.dedupeKey, dedupeKey))))[0],

    list: (q) =>
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
        .limit(q.limit),

    recordAttempt: async (id, at) => {
      const [row] = await orm
        .update(t)
        .set({ attempts: sql`${t.attempts} + 1`, updatedAt: at })
        .where(eq(t.id, id))
        .returning({ attempts: t.attempts });
      return row?.attempts ?? 0;
    },

    markProcessed: async (id, at) => {
      await orm.update(t).set({ status: 'processed', error: null, processedAt: at, updatedAt: at }).where(eq(t.id, id));
    },

    markFailed: async (id, error, at) => {
      await orm.update(t).set({ status: 'failed', error, updatedAt: at }).where(eq(t.id, id));
    },

    noteError: async (id, error, at) => {
      await orm.update(t).set({ error, updatedAt: at }).where(eq(t.id, id));
    },

    reopen: async (id, at) => {
      const rows = await orm
        .update(t)
        .set({ status: 'received', updatedAt: at })
        .where(and(eq(t.id, id), inArray(t.status, ['failed', 'processed'])))
        .returning({ id: t.id });
      return rows.length > 0;
    },

    countByStatus: async () => {
      const rows = await orm.select({ status: t.status, n: sql<string>`count(*)` }).from(t).groupBy(t.status);
      return countsOf(rows);
    },
  };
}
