import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { wmsPushes as t } from '../pg/schema.js';

const p = (name: string) => sql.placeholder(name);

/**
 * The push path's statements, built once and named, so Postgres parses and plans each once per
 * connection and drizzle does not build them again per push (three of them run per pushed record).
 */
export function pgPushesStatements(orm: PgOrm) {
  return {
    claim: orm
      .update(t)
      .set({ lockedBy: sql`${p('owner')}`, lockedUntil: sql`${p('until')}::timestamptz` })
      .where(and(eq(t.id, p('id')), or(isNull(t.lockedBy), lt(t.lockedUntil, sql`${p('at')}::timestamptz`))))
      .returning()
      .prepare('wms_sync_pushes_claim'),
    release: orm
      .update(t)
      .set({ lockedBy: null, lockedUntil: null })
      .where(and(eq(t.id, p('id')), eq(t.lockedBy, p('owner'))))
      .returning()
      .prepare('wms_sync_pushes_release'),
    recordAttempt: orm
      .update(t)
      .set({
        attempts: sql`${t.attempts} + 1`,
        lastPushedAt: sql`${p('at')}::timestamptz`,
        updatedAt: sql`${p('at')}::timestamptz`,
      })
      .where(eq(t.id, p('id')))
      .returning({ attempts: t.attempts })
      .prepare('wms_sync_pushes_record_attempt'),
    markSynced: orm
      .update(t)
      .set({
        syncedHash: sql`${p('hash')}`,
        // A newer payload is pending even if an overlapping push marked it synced (see the SQLite adapter).
        state: sql`CASE WHEN ${t.payloadHash} = ${p('hash')} THEN 'synced' ELSE 'pending' END`,
        lastError: null,
        updatedAt: sql`${p('at')}::timestamptz`,
        // Only the owner gives the lease back (a lease that ran out and was taken stays taken; no owner, no change).
        lockedBy: sql`CASE WHEN ${t.lockedBy} = ${p('owner')} THEN NULL ELSE ${t.lockedBy} END`,
        lockedUntil: sql`CASE WHEN ${t.lockedBy} = ${p('owner')} THEN NULL ELSE ${t.lockedUntil} END`,
      })
      .where(eq(t.id, p('id')))
      .returning()
      .prepare('wms_sync_pushes_mark_synced'),
  };
}

export type PgPushesStatements = ReturnType<typeof pgPushesStatements>;
