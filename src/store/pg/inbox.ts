import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { countsOf } from '../counts.js';
import type { InboxRepo } from '../types.js';
import type { PgOrm } from './database.js';
import { inboundEvents as t } from './schema.js';

export function pgInbox(orm: PgOrm): InboxRepo {
  return {
    record: async (input) => {
      // ON CONFLICT takes the row lock, so concurrent repeats serialize and each counts once.
      const [event] = await orm
        .insert(t)
        .values({
          connection: input.connection,
          kind: input.kind,
          dedupeKey: input.dedupeKey,
          status: input.status ?? 'received',
          payload: input.payload,
          error: input.error ?? null,
          requestId: input.requestId ?? null,
          receivedAt: input.at,
          updatedAt: input.at,
        })
        .onConflictDoUpdate({
          target: [t.connection, t.dedupeKey],
          set: { duplicates: sql`${t.duplicates} + 1`, lastDuplicateAt: input.at },
        })
        .returning();
      return { event: event!, duplicate: event!.duplicates > 0 };
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
