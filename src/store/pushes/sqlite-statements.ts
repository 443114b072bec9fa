import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import { wmsPushes as t, wmsPushWaits as w } from '../sqlite/schema.js';

const p = (name: string) => sql.placeholder(name);
/** A placeholder where drizzle expects a value (`set`): plain SQL, bound as given. */
const v = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * The push path's statements, prepared once: building and preparing a drizzle query costs more
 * than running it on SQLite, and every push runs these. Placeholders are not encoded by drizzle,
 * so times are bound as epoch milliseconds (the columns' storage form).
 */
function prepare(orm: SqliteOrm) {
  return {
    byId: orm
      .select()
      .from(t)
      .where(eq(t.id, p('id')))
      .prepare(),
    byKey: orm
      .select()
      .from(t)
      .where(and(eq(t.connection, p('connection')), eq(t.entity, p('entity')), eq(t.externalCode, p('code'))))
      .prepare(),
    // `payload` is bound as its JSON text, the column's storage form.
    upsert: orm
      .insert(t)
      .values({
        connection: v('connection'),
        entity: v('entity'),
        externalCode: v('code'),
        payload: v('payload'),
        payloadHash: v('hash'),
        state: 'pending',
        createdAt: v('at'),
        updatedAt: v('at'),
      })
      .onConflictDoUpdate({
        target: [t.connection, t.entity, t.externalCode],
        set: { payload: v('payload'), payloadHash: v('hash'), state: 'pending', lastError: null, updatedAt: v('at') },
      })
      .returning()
      .prepare(),
    claim: orm
      .update(t)
      .set({ lockedBy: v('owner'), lockedUntil: v('until') })
      .where(and(eq(t.id, p('id')), or(isNull(t.lockedBy), lt(t.lockedUntil, p('at')))))
      .returning()
      .prepare(),
    release: orm
      .update(t)
      .set({ lockedBy: null, lockedUntil: null })
      .where(and(eq(t.id, p('id')), eq(t.lockedBy, p('owner'))))
      .returning()
      .prepare(),
    summarize: orm
      .select({ state: t.state, n: sql<number>`count(*)` })
      .from(t)
      .where(sql`${t.id} IN (SELECT value FROM json_each(${p('ids')}))`)
      .groupBy(t.state)
      .prepare(),
    recordAttempt: orm
      .update(t)
      .set({ attempts: sql`${t.attempts} + 1`, lastPushedAt: v('at'), updatedAt: v('at') })
      .where(eq(t.id, p('id')))
      .returning({ attempts: t.attempts })
      .prepare(),
    markSynced: orm
      .update(t)
      .set({
        syncedHash: v('hash'),
        // Only the payload that was pushed becomes synced; a newer one stored meanwhile is pending,
        // even when a push that overlapped this one (its lease ran out) marked it synced: this older
        // payload may have reached the WMS after it, so the newer one must be pushed again.
        state: sql`CASE WHEN ${t.payloadHash} = ${p('hash')} THEN 'synced' ELSE 'pending' END`,
        lastError: null,
        updatedAt: v('at'),
        // Only the owner gives the lease back (a lease that ran out and was taken stays taken; no owner, no change).
        lockedBy: sql`CASE WHEN ${t.lockedBy} = ${p('owner')} THEN NULL ELSE ${t.lockedBy} END`,
        lockedUntil: sql`CASE WHEN ${t.lockedBy} = ${p('owner')} THEN NULL ELSE ${t.lockedUntil} END`,
      })
      .where(eq(t.id, p('id')))
      .returning()
      .prepare(),
    releaseWaiters: orm
      .delete(w)
      .where(and(eq(w.connection, p('connection')), eq(w.entity, p('entity')), eq(w.externalCode, p('code'))))
      .returning({ recordId: w.recordId })
      .prepare(),
    clearWaits: orm
      .delete(w)
      .where(eq(w.recordId, p('id')))
      .prepare(),
    hasWaiters: orm
      .select({ one: w.id })
      .from(w)
      .where(and(eq(w.connection, p('connection')), eq(w.entity, p('entity')), eq(w.externalCode, p('code'))))
      .limit(1)
      .prepare(),
  };
}

export type PushesStatements = ReturnType<typeof prepare>;

/** Prepared on first use (the tables exist only once the store is migrated). */
export function lazyPushesStatements(orm: SqliteOrm): () => PushesStatements {
  let statements: PushesStatements | undefined;
  return () => (statements ??= prepare(orm));
}
