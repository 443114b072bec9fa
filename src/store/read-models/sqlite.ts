import { and, count, desc, eq, getTableColumns, gte, lt, sql } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import type { Run } from '../sqlite/runner.js';
import { confirmations, inboundEvents, outboundRecords } from '../sqlite/schema.js';
import type { ReadModelsRepo } from './contract.js';
import { mergeNewestFirst, pageStates } from './pages.js';

const { payload: _payload, ...summary } = getTableColumns(outboundRecords);

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

    outboundCounts: (connection) =>
      run(() =>
        orm
          .select({ entity: outboundRecords.entity, state: outboundRecords.state, n: count() })
          .from(outboundRecords)
          .where(eq(outboundRecords.connection, connection))
          .groupBy(outboundRecords.entity, outboundRecords.state)
          .all(),
      ),

    outboundPage: (q) =>
      run(() =>
        mergeNewestFirst(
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
          .from(confirmations)
          .where(
            and(
              eq(confirmations.connection, connection),
              beforeId !== undefined ? lt(confirmations.id, beforeId) : undefined,
            ),
          )
          .orderBy(desc(confirmations.id))
          .limit(limit)
          .all(),
      ),
  };
}
