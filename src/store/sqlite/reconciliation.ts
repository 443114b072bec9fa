import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import { chunked, itemCounts, itemRow, mergeExpected, runRow, snapshotRow, startUpdate } from '../reconciliation-rows.js';
import { RUN_COUNTERS, type ReconciliationRepo } from '../reconciliation-types.js';
import type { SqliteOrm } from './database.js';
import { reconciliationItems as items, reconciliationRuns as runs, reconciliationSnapshots as snapshots } from './reconciliation-schema.js';
import type { Run } from './runner.js';
import { stockLedger as ledger } from './schema.js';

const FINISHED: ('completed' | 'partial' | 'failed')[] = ['completed', 'partial', 'failed'];

export function sqliteReconciliation(orm: SqliteOrm, run: Run): ReconciliationRepo {
  return {
    createRun: (input) => run(() => orm.insert(runs).values(runRow(input)).returning().get()),

    getRun: (id) => run(() => orm.select().from(runs).where(eq(runs.id, id)).get()),

    listRuns: (connection, q) =>
      run(() =>
        orm
          .select()
          .from(runs)
          .where(and(eq(runs.connection, connection), q.beforeId ? lt(runs.id, q.beforeId) : undefined))
          .orderBy(desc(runs.id))
          .limit(q.limit)
          .all(),
      ),

    findQueued: (connection) =>
      run(() => orm.select().from(runs).where(and(eq(runs.connection, connection), eq(runs.status, 'queued'))).orderBy(desc(runs.id)).limit(1).get()),

    startRun: (id, at) =>
      run(() =>
        orm
          .update(runs)
          .set({ ...startUpdate(at), attempts: sql`${runs.attempts} + 1` })
          .where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)))
          .returning()
          .get(),
      ),

    setProductsTotal: (id, total, at) =>
      run(() => {
        orm.update(runs).set({ productsTotal: total, updatedAt: at }).where(eq(runs.id, id)).run();
      }),

    addProgress: (id, increments, at) =>
      run(() => {
        const set: Record<string, unknown> = { updatedAt: at };
        for (const c of RUN_COUNTERS) if (increments[c]) set[c] = sql`${runs[c]} + ${increments[c]}`;
        orm.update(runs).set(set).where(eq(runs.id, id)).run();
      }),

    requeueRun: (id, reason, at) =>
      run(() => {
        orm.update(runs).set({ status: 'queued', reason, updatedAt: at }).where(and(eq(runs.id, id), notInArray(runs.status, FINISHED))).run();
      }),

    finishRun: (id, outcome) =>
      run(() => {
        const counts = orm
          .select({ status: items.status, n: sql<number>`count(*)`.mapWith(Number) })
          .from(items)
          .where(eq(items.runId, id))
          .groupBy(items.status)
          .all();
        orm
          .update(runs)
          .set({ status: outcome.status, reason: outcome.reason, finishedAt: outcome.at, updatedAt: outcome.at, ...itemCounts(counts) })
          .where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)))
          .run();
        return orm.select().from(runs).where(eq(runs.id, id)).get();
      }),

    addItems: (rows) =>
      run(() => {
        let added = 0;
        for (const part of chunked(rows)) {
          added += orm
            .insert(items)
            .values(part.map(itemRow))
            .onConflictDoNothing({ target: [items.runId, items.productExternalCode, items.lotCode] })
            .returning({ id: items.id })
            .all().length;
        }
        return added;
      }),

    listItems: (runId, q) =>
      run(() =>
        orm
          .select()
          .from(items)
          .where(and(eq(items.runId, runId), q.afterId ? gt(items.id, q.afterId) : undefined))
          .orderBy(asc(items.id))
          .limit(q.limit)
          .all(),
      ),

    saveSnapshots: (rows) =>
      run(() => {
        for (const part of chunked(rows)) {
          orm
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
            })
            .run();
        }
      }),

    getSnapshot: (connection, product, lot) =>
      run(() =>
        orm
          .select()
          .from(snapshots)
          .where(and(eq(snapshots.connection, connection), eq(snapshots.productExternalCode, product), eq(snapshots.lotCode, lot ?? '')))
          .get(),
      ),

    expected: (connection, products, cut) =>
      run(() => {
        const base = [];
        const sums = [];
        for (const part of chunked(products)) {
          base.push(
            ...orm
              .select({ productExternalCode: snapshots.productExternalCode, lotCode: snapshots.lotCode, existence: snapshots.existence })
              .from(snapshots)
              .where(and(eq(snapshots.connection, connection), inArray(snapshots.productExternalCode, part)))
              .all(),
          );
          sums.push(
            ...orm
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
              .groupBy(ledger.productExternalCode, ledger.lotCode)
              .all(),
          );
        }
        return mergeExpected(base, sums);
      }),
  };
}
