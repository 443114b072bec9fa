import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import { chunked, itemCounts, itemRow, mergeExpected, runRow, snapshotRow, startUpdate } from '../reconciliation-rows.js';
import { RUN_COUNTERS, type ReconciliationRepo } from '../reconciliation-types.js';
import type { PgOrm } from './database.js';
import { reconciliationItems as items, reconciliationRuns as runs, reconciliationSnapshots as snapshots } from './reconciliation-schema.js';
import { stockLedger as ledger } from './schema.js';

const FINISHED: ('completed' | 'partial' | 'failed')[] = ['completed', 'partial', 'failed'];

export function pgReconciliation(orm: PgOrm): ReconciliationRepo {
  const getRun = async (id: number) => (await orm.select().from(runs).where(eq(runs.id, id)))[0];
  return {
    createRun: async (input) => (await orm.insert(runs).values(runRow(input)).returning())[0]!,

    getRun,

    listRuns: (connection, q) =>
      orm
        .select()
        .from(runs)
        .where(and(eq(runs.connection, connection), q.beforeId ? lt(runs.id, q.beforeId) : undefined))
        .orderBy(desc(runs.id))
        .limit(q.limit),

    findQueued: async (connection) =>
      (await orm.select().from(runs).where(and(eq(runs.connection, connection), eq(runs.status, 'queued'))).orderBy(desc(runs.id)).limit(1))[0],

    startRun: async (id, at) =>
      (
        await orm
          .update(runs)
          .set({ ...startUpdate(at), attempts: sql`${runs.attempts} + 1` })
          .where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)))
          .returning()
      )[0],

    setProductsTotal: async (id, total, at) => {
      await orm.update(runs).set({ productsTotal: total, updatedAt: at }).where(eq(runs.id, id));
    },

    addProgress: async (id, increments, at) => {
      const set: Record<string, unknown> = { updatedAt: at };
      for (const c of RUN_COUNTERS) if (increments[c]) set[c] = sql`${runs[c]} + ${increments[c]}`;
      await orm.update(runs).set(set).where(eq(runs.id, id));
    },

    requeueRun: async (id, reason, at) => {
      await orm.update(runs).set({ status: 'queued', reason, updatedAt: at }).where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)));
    },

    finishRun: async (id, outcome) => {
      // One statement: the counts are read from the items as the update runs.
      const count = (status: string) => sql<number>`(SELECT count(*) FROM ${items} WHERE ${items.runId} = ${id} AND ${items.status} = ${status})`;
      await orm
        .update(runs)
        .set({
          status: outcome.status,
          reason: outcome.reason,
          finishedAt: outcome.at,
          updatedAt: outcome.at,
          driftCount: count('drift'),
          notFoundCount: count('not_found'),
          unsettledCount: count('unsettled'),
        })
        .where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)));
      return getRun(id);
    },

    addItems: async (rows) => {
      let added = 0;
      for (const part of chunked(rows)) {
        added += (
          await orm
            .insert(items)
            .values(part.map(itemRow))
            .onConflictDoNothing({ target: [items.runId, items.productExternalCode, items.lotCode] })
            .returning({ id: items.id })
        ).length;
      }
      return added;
    },

    listItems: (runId, q) =>
      orm
        .select()
        .from(items)
        .where(and(eq(items.runId, runId), q.afterId ? gt(items.id, q.afterId) : undefined))
        .orderBy(asc(items.id))
        .limit(q.limit),

    saveSnapshots: async (rows) => {
      for (const part of chunked(rows)) {
        await orm
          .insert(snapshots)
          .values(part.map(snapshotRow))
          .onConflictDoUpdate({
            target: [snapshots.connection, snapshots.productExternalCode, snapshots.lotCode],
            set: {
              existence: sql`excluded.existence`,
              available: sql`excluded.available`,
              asOf: sql`excluded.as_of`,
              takenAt: sql`excluded.taken_at`,
              runId: sql`excluded.run_id`,
            },
          });
      }
    },

    getSnapshot: async (connection, product, lot) =>
      (
        await orm
          .select()
          .from(snapshots)
          .where(and(eq(snapshots.connection, connection), eq(snapshots.productExternalCode, product), eq(snapshots.lotCode, lot ?? '')))
      )[0],

    expected: async (connection, products, cut) => {
      const base = [];
      const sums = [];
      for (const part of chunked(products)) {
        const [b, s] = await Promise.all([
          orm
            .select({ productExternalCode: snapshots.productExternalCode, lotCode: snapshots.lotCode, existence: snapshots.existence })
            .from(snapshots)
            .where(and(eq(snapshots.connection, connection), inArray(snapshots.productExternalCode, part))),
          orm
            .select({
              productExternalCode: ledger.productExternalCode,
              lotCode: ledger.lotCode,
              quantity: sql<number>`sum(${ledger.quantity})`.mapWith(Number),
              n: sql<number>`count(*)`.mapWith(Number),
            })
            .from(ledger)
            .leftJoin(
              snapshots,
              and(eq(snapshots.connection, ledger.connection), eq(snapshots.productExternalCode, ledger.productExternalCode), eq(snapshots.lotCode, ledger.lotCode)),
            )
            .where(
              and(
                eq(ledger.connection, connection),
                inArray(ledger.productExternalCode, part),
                lte(ledger.movementTime, cut),
                or(isNull(snapshots.asOf), gt(ledger.movementTime, snapshots.asOf), gt(ledger.createdAt, snapshots.takenAt)),
              ),
            )
            .groupBy(ledger.productExternalCode, ledger.lotCode),
        ]);
        base.push(...b);
        sums.push(...s);
      }
      return mergeExpected(base, sums);
    },
  };
}
