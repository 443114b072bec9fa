import { and, count, desc, eq, getTableColumns, gte, lt, sql } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import { feedEntries, inboundEvents, wmsPushes } from '../sqlite/schema.js';
import type { ReadModelsRepo } from './contract.js';
import { mergeNewestFirst, pageStates } from './pages.js';

const { payload: _payload, ...summary } = getTableColumns(wmsPushes);

export function sqliteReadModels(orm: SqliteOrm, run: Run): ReadModelsRepo {
  return {
    // The window as the id range it starts at (from the received_at index alone), so that only
    // the connection's events in it are read.
    inboundCounts: (connection, since) =>
      run(() => {
        const { lo } = orm
          .select({ lo: sql<number | null>`min(${inboundEvents.id})` })
          .from(inboundEvents)
          .where(gte(inboundEvents.receivedAt, since))
          .get()!;
        if (lo === null) return [];
        return orm
          .select({ kind: inboundEvents.kind, status: inboundEvents.status, n: count() })
          .from(inboundEvents)
          .where(
            and(
              eq(inboundEvents.connection, connection),
              gte(inboundEvents.id, lo),
              gte(inboundEvents.receivedAt, since),
            ),
          )
          .groupBy(inboundEvents.kind, inboundEvents.status)
          .all();
      }),

    pushCounts: (connection) =>
      run(() =>
        orm
          .select({ entity: wmsPushes.entity, state: wmsPushes.state, n: count() })
          .from(wmsPushes)
          .where(eq(wmsPushes.connection, connection))
          .groupBy(wmsPushes.entity, wmsPushes.state)
          .all(),
      ),

    pushesPage: (q) =>
      run(() =>
        mergeNewestFirst(
          pageStates(q.state).map((state) =>
            orm
              .select(summary)
              .from(wmsPushes)
              .where(
                and(
                  eq(wmsPushes.connection, q.connection),
                  eq(wmsPushes.entity, q.entity),
                  eq(wmsPushes.state, state),
                  q.beforeId !== undefined ? lt(wmsPushes.id, q.beforeId) : undefined,
                ),
              )
              .orderBy(desc(wmsPushes.id))
              .limit(q.limit)
              .all(),
          ),
          q.limit,
        ),
      ),

    feedBefore: (connection, beforeId, limit) =>
      run(() =>
        orm
          .select()
          .from(feedEntries)
          .where(
            and(
              eq(feedEntries.connection, connection),
              beforeId !== undefined ? lt(feedEntries.id, beforeId) : undefined,
            ),
          )
          .orderBy(desc(feedEntries.id))
          .limit(limit)
          .all(),
      ),
  };
}
