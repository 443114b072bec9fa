import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { outboundRow, outboundUpdate } from '../rows.js';
import type { OutboxRepo } from '../types.js';
import type { SqliteOrm } from './database.js';
import type { Run } from './runner.js';
import { outboundRecords as t } from './schema.js';

export function sqliteOutbox(orm: SqliteOrm, run: Run): OutboxRepo {
  const byId = (id: number) => orm.select().from(t).where(eq(t.id, id)).get();
  return {
    upsert: (input) =>
      run(() => {
        const existing = orm
          .select()
          .from(t)
          .where(and(eq(t.connection, input.connection), eq(t.entity, input.entity), eq(t.externalCode, input.externalCode)))
          .get();
        if (existing && existing.payloadHash === input.payloadHash && existing.state !== 'failed') {
          return { record: existing, changed: false };
        }
        const record = orm
          .insert(t)
          .values(outboundRow(input))
          .onConflictDoUpdate({
            target: [t.connection, t.entity, t.externalCode],
            set: outboundUpdate(input),
          })
          .returning()
          .get();
        return { record, changed: true };
      }),

    get: (connection, entity, externalCode) =>
      run(() =>
        orm
          .select()
          .from(t)
          .where(and(eq(t.connection, connection), eq(t.entity, entity), eq(t.externalCode, externalCode)))
          .get(),
      ),

    getById: (id) => run(() => byId(id)),

    recordAttempt: (id, at) =>
      run(() => {
        const row = orm
          .update(t)
          .set({ attempts: sql`${t.attempts} + 1`, lastPushedAt: at, updatedAt: at })
          .where(eq(t.id, id))
          .returning({ attempts: t.attempts })
          .get();
        return row?.attempts ?? 0;
      }),

    markSynced: (id, pushedHash, at) =>
      run(() => {
        // Only the payload that was pushed becomes synced; a newer one stored meanwhile stays pending.
        orm
          .update(t)
          .set({
            syncedHash: pushedHash,
            state: sql`CASE WHEN ${t.payloadHash} = ${pushedHash} THEN 'synced' ELSE ${t.state} END`,
            lastError: null,
            updatedAt: at,
          })
          .where(eq(t.id, id))
          .run();
      }),

    markFailed: (id, error, at) =>
      run(() => {
        orm.update(t).set({ state: 'failed', lastError: error ?? null, updatedAt: at }).where(eq(t.id, id)).run();
      }),

    markPending: (id, at) =>
      run(() => orm.update(t).set({ state: 'pending', updatedAt: at }).where(eq(t.id, id)).run().changes > 0),

    list: (q) =>
      run(() =>
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
          .limit(q.limit)
          .all(),
      ),
  };
}
