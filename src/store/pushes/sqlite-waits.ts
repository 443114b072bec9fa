import { and, asc, eq, min, notInArray, sql } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import { wmsPushWaits as w } from '../sqlite/schema.js';
import type { PushesRepo } from './contract.js';
import type { PushesStatements } from './sqlite-statements.js';

type WaitsRepo = Pick<PushesRepo, 'setWaits' | 'waitsOf' | 'releaseWaiters' | 'hasWaiters'>;

const key = (entity: string, code: string) => `${entity}\u0001${code}`;

export function sqlitePushWaits(orm: SqliteOrm, run: Run, statements: () => PushesStatements): WaitsRepo {
  return {
    setWaits: (recordId, connection, targets, at) =>
      // One synchronous run: nothing interleaves on the single SQLite connection.
      run(() => {
        if (targets.length === 0) {
          // The common case (nothing to wait for): one prepared delete.
          statements().clearWaits.run({ id: recordId });
          return undefined;
        }
        const wanted = targets.map((r) => key(r.entity, r.externalCode));
        const current = sql`${w.entity} || char(1) || ${w.externalCode}`;
        orm
          .delete(w)
          .where(and(eq(w.recordId, recordId), notInArray(current, wanted)))
          .run();
        orm
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
          .onConflictDoNothing()
          .run();
        return (
          orm
            .select({ since: min(w.createdAt) })
            .from(w)
            .where(eq(w.recordId, recordId))
            .get()?.since ?? undefined
        );
      }),

    waitsOf: (recordId) =>
      run(() =>
        orm
          .select({ entity: w.entity, externalCode: w.externalCode, since: w.createdAt })
          .from(w)
          .where(eq(w.recordId, recordId))
          .orderBy(asc(w.id))
          .all(),
      ),

    releaseWaiters: (connection, target) =>
      run(() =>
        statements()
          .releaseWaiters.all({ connection, entity: target.entity, code: target.externalCode })
          .map((r) => r.recordId),
      ),

    hasWaiters: (connection, target) =>
      run(
        () =>
          statements().hasWaiters.get({ connection, entity: target.entity, code: target.externalCode }) !== undefined,
      ),
  };
}
