import { and, asc, eq, min, notInArray, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { wmsPushWaits as w } from '../pg/schema.js';
import type { PushesRepo } from './contract.js';

type WaitsRepo = Pick<PushesRepo, 'setWaits' | 'waitsOf' | 'releaseWaiters' | 'hasWaiters'>;

const key = (entity: string, code: string) => `${entity}\u0001${code}`;

export function pgPushWaits(orm: PgOrm): WaitsRepo {
  return {
    // Three statements without a transaction of their own (they may run inside the caller's):
    // a record's wait set is only written by the job holding that record's push lease.
    setWaits: async (recordId, connection, targets, at) => {
      if (targets.length === 0) {
        // The common case (nothing to wait for): one delete, and no wait remains to date.
        await orm.delete(w).where(eq(w.recordId, recordId));
        return undefined;
      }
      const wanted = targets.map((r) => key(r.entity, r.externalCode));
      const current = sql`${w.entity} || chr(1) || ${w.externalCode}`;
      await orm
        .delete(w)
        .where(and(eq(w.recordId, recordId), wanted.length > 0 ? notInArray(current, wanted) : undefined));
      if (targets.length > 0) {
        await orm
          .insert(w)
          .values(
            targets.map((r) => ({
              connection,
              recordId,
              entity: r.entity,
              externalCode: r.externalCode,
              createdAt: at,
            })),
          )
          .onConflictDoNothing();
      }
      const [row] = await orm
        .select({ since: min(w.createdAt) })
        .from(w)
        .where(eq(w.recordId, recordId));
      return row?.since ?? undefined;
    },

    waitsOf: (recordId) =>
      orm
        .select({ entity: w.entity, externalCode: w.externalCode, since: w.createdAt })
        .from(w)
        .where(eq(w.recordId, recordId))
        .orderBy(asc(w.id)),

    releaseWaiters: async (connection, target) =>
      (
        await orm
          .delete(w)
          .where(
            and(eq(w.connection, connection), eq(w.entity, target.entity), eq(w.externalCode, target.externalCode)),
          )
          .returning({ recordId: w.recordId })
      ).map((r) => r.recordId),

    hasWaiters: async (connection, target) =>
      (
        await orm
          .select({ one: sql<number>`1` })
          .from(w)
          .where(
            and(eq(w.connection, connection), eq(w.entity, target.entity), eq(w.externalCode, target.externalCode)),
          )
          .limit(1)
      ).length > 0,
  };
}
