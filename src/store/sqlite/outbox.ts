import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { OUTBOUND_STATES } from '../values.js';
import type { OutboxRepo } from '../types.js';
import type { SqliteOrm } from './database.js';
import { sqliteOutboxWaits } from './outbox-waits.js';
import type { Run } from './runner.js';
import { outboundRecords as t } from './schema.js';

/** Codes per IN list, well under SQLite's limit of host parameters. */
const CHUNK = 500;

export function sqliteOutbox(orm: SqliteOrm, run: Run): OutboxRepo {
  const byId = (id: number) => orm.select().from(t).where(eq(t.id, id)).get();
  return {
    ...sqliteOutboxWaits(orm, run),
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
          .values({
            connection: input.connection,
            entity: input.entity,
            externalCode: input.externalCode,
            payload: input.payload,
            payloadHash: input.payloadHash,
            state: 'pending',
            createdAt: input.at,
            updatedAt: input.at,
          })
          .onConflictDoUpdate({
            target: [t.connection, t.entity, t.externalCode],
            set: { payload: input.payload, payloadHash: input.payloadHash, state: 'pending', lastError: null, updatedAt: input.at },
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

    markFailed: (id, error, at, forHash) =>
      run(() => {
        orm
          .update(t)
          .set({ state: 'failed', lastError: error ?? null, updatedAt: at })
          .where(and(eq(t.id, id), forHash !== undefined ? eq(t.payloadHash, forHash) : undefined))
          .run();
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

    getMany: (connection, entity, externalCodes) =>
      run(() => {
        const out = [];
        for (let i = 0; i < externalCodes.length; i += CHUNK) {
          const codes = externalCodes.slice(i, i + CHUNK);
          out.push(
            ...orm
              .select()
              .from(t)
              .where(and(eq(t.connection, connection), eq(t.entity, entity), inArray(t.externalCode, codes)))
              .all(),
          );
        }
        return out;
      }),

    noteError: (id, error, at) =>
      run(() => {
        orm.update(t).set({ lastError: error ?? null, updatedAt: at }).where(eq(t.id, id)).run();
      }),

    claim: (id, owner, until, at) =>
      run(() =>
        orm
          .update(t)
          .set({ lockedBy: owner, lockedUntil: until })
          .where(and(eq(t.id, id), or(isNull(t.lockedBy), lt(t.lockedUntil, at))))
          .returning()
          .get(),
      ),

    release: (id, owner) =>
      run(() => {
        orm
          .update(t)
          .set({ lockedBy: null, lockedUntil: null })
          .where(and(eq(t.id, id), eq(t.lockedBy, owner)))
          .run();
        return byId(id);
      }),

    summarize: (ids) =>
      run(() => {
        const counts = Object.fromEntries(OUTBOUND_STATES.map((s) => [s, 0])) as Record<(typeof OUTBOUND_STATES)[number], number>;
        for (let i = 0; i < ids.length; i += CHUNK) {
          const rows = orm
            .select({ state: t.state, n: sql<number>`count(*)` })
            .from(t)
            .where(inArray(t.id, ids.slice(i, i + CHUNK) as number[]))
            .groupBy(t.state)
            .all();
          for (const r of rows) counts[r.state] += Number(r.n);
        }
        return counts;
      }),
  };
}
