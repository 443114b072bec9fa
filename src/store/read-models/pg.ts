import { and, count, desc, eq, getTableColumns, gte, lt } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { feedEntries, inboundEvents, wmsPushes } from '../pg/schema.js';
import type { ReadModelsRepo } from './contract.js';
import { mergeNewestFirst, pageStates } from './pages.js';

const { payload: _payload, ...summary } = getTableColumns(wmsPushes);

export function pgReadModels(orm: PgOrm): ReadModelsRepo {
  return {
    inboundCounts: (connection, since) =>
      orm
        .select({ kind: inboundEvents.kind, status: inboundEvents.status, n: count() })
        .from(inboundEvents)
        .where(and(eq(inboundEvents.connection, connection), gte(inboundEvents.receivedAt, since)))
        .groupBy(inboundEvents.kind, inboundEvents.status),

    pushCounts: (connection) =>
      orm
        .select({ entity: wmsPushes.entity, state: wmsPushes.state, n: count() })
        .from(wmsPushes)
        .where(eq(wmsPushes.connection, connection))
        .groupBy(wmsPushes.entity, wmsPushes.state),

    pushesPage: async (q) =>
      mergeNewestFirst(
        await Promise.all(
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
              .limit(q.limit),
          ),
        ),
        q.limit,
      ),

    feedBefore: (connection, beforeId, limit) =>
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
        .limit(limit),
  };
}
