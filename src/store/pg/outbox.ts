import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { outboundRow, outboundUpdate } from '../rows.js';
import type { OutboxRepo } from '../types.js';
import type { PgOrm } from './database.js';
import { outboundRecords as t } from './schema.js';

export function pgOutbox(orm: PgOrm): OutboxRepo {
  return {
    upsert: async (input) => {
      const key = and(eq(t.connection, input.connection), eq(t.entity, input.entity), eq(t.externalCode, input.externalCode));
      const [existing] = await orm.select().from(t).where(key);
      if (existing && existing.payloadHash === input.payloadHash && existing.state !== 'failed') {
        return { record: existing, changed: false };
      }
      const [record] = await orm
        .insert(t)
        .values(outboundRow(input))
        .onConflictDoUpdate({
          target: [t.connection, t.entity, t.externalCode],
          set: outboundUpdate(input),
        })
        .returning();
      return { record: record!, changed: true };
    },

    get: async (connection, entity, externalCode) =>
      (await orm.select().from(t).where(and(eq(t.connection, connection), eq(t.entity, entity), eq(t.externalCode, externalCode))))[0],

    getById: async (id) => (await orm.select().from(t).where(eq(t.id, id)))[0],

    recordAttempt: async (id, at) => {
      const [row] = await orm
        .update(t)
        .set({ attempts: sql`${t.attempts} + 1`, lastPushedAt: at, updatedAt: at })
        .where(eq(t.id, id))
        .returning({ attempts: t.attempts });
      return row?.attempts ?? 0;
    },

    markSynced: async (id, pushedHash, at) => {
      await orm
        .update(t)
        .set({
          syncedHash: pushedHash,
          state: sql`CASE WHEN ${t.payloadHash} = ${pushedHash} THEN 'synced' ELSE ${t.state} END`,
          lastError: null,
          updatedAt: at,
        })
        .where(eq(t.id, id));
    },

    markFailed: async (id, error, at) => {
      await orm.update(t).set({ state: 'failed', lastError: error ?? null, updatedAt: at }).where(eq(t.id, id));
    },

    markPending: async (id, at) =>
      (await orm.update(t).set({ state: 'pending', updatedAt: at }).where(eq(t.id, id)).returning({ id: t.id })).length > 0,

    list: (q) =>
      orm
        .select()
        .from(t)
        .where(
          and(
            eq(t.connection, q.connection),
            q.entity ? eq(t.entity, q.entity) : undefined,
            q.state ? eq(t.state, q.state) : undefined,
            q.afterId ? gt(t.id, q.afterId) : undefined,
          ),
        )
        .orderBy(asc(t.id))
        .limit(q.limit),
  };
}
