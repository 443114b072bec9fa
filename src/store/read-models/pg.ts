import { and, count, desc, eq, getTableColumns, gte, lt } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import { confirmations, inboundEvents, outboundRecords } from '../pg/schema.js';
import type { ReadModelsRepo } from './contract.js';
import { mergeNewestFirst, pageStates } from './pages.js';

const { payload: _payload, ...summary } = getTableColumns(outboundRecords);

export function pgReadModels(orm: PgOrm): ReadModelsRepo {
  return {
    inboundCounts: (connection, since) =>
      orm
        .select({ kind: inboundEvents.kind, status: inboundEvents.status, n: count() })
        .from(inboundEvents)
        .where(and(eq(inboundEvents.connection, connection), gte(inboundEvents.receivedAt, since)))
        .groupBy(inboundEvents.kind, inboundEvents.status),

    outboundCounts: (connection) =>
      orm
        .select({ entity: outboundRecords.entity, state: outboundRecords.state, n: count() })
        .from(outboundRecords)
        .where(eq(outboundRecords.connection, connection))
        .groupBy(outboundRecords.entity, outboundRecords.state),

    outboundPage: async (q) =>
      mergeNewestFirst(
        await Promise.all(
          pageStates(q.state).map((state) =>
            orm
              .select(summary)
              .from(outboundRecords)
              .where(
                and(
                  eq(outboundRecords.connection, q.connection),
                  eq(outboundRecords.entity, q.entity),
                  eq(outboundRecords.state, state),
                  q.beforeId !== undefined ? lt(outboundRecords.id, q.beforeId) : undefined,
                ),
              )
              .orderBy(desc(outboundRecords.id))
              .limit(q.limit),
          ),
        ),
        q.limit,
      ),

    feedBefore: (connection, beforeId, limit) =>
      orm
        .select()
        .from(confirmations)
        .where(
          and(
            eq(confirmations.connection, connection),
            beforeId !== undefined ? lt(confirmations.id, beforeId) : undefined,
          ),
        )
        .orderBy(desc(confirmations.id))
        .limit(limit),
  };
}
