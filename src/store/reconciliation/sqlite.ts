import type Database from 'better-sqlite3';
import { and, asc, desc, eq, gt, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { SqliteOrm } from '../sqlite/database.js';
import {
  reconciliationItems as items,
  reconciliationRuns as runs,
  reconciliationSnapshots as snapshots,
} from '../sqlite/reconciliation-schema.js';
import type { Run } from '../sqlite/runner.js';
import { type ReconciliationRepo, RUN_COUNTERS } from './contract.js';
import { chunked, itemCounts, itemRow, mergeExpected, runRow, startUpdate } from './rows.js';
import { prepareReconciliationStatements, type ReconciliationStatements, snapshotParams } from './sqlite-statements.js';

const FINISHED: ('completed' | 'partial' | 'failed')[] = ['completed', 'partial', 'failed'];
const WAITING: ('queued' | 'interrupted')[] = ['queued', 'interrupted'];

export function sqliteReconciliation(orm: SqliteOrm, run: Run, raw: Database.Database): ReconciliationRepo {
  let prepared: ReconciliationStatements | undefined;
  // Lazily: the tables exist only after migrate().
  const statements = () => (prepared ??= prepareReconciliationStatements(raw));
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
      run(() =>
        orm
          .select()
          .from(runs)
          .where(and(eq(runs.connection, connection), inArray(runs.status, WAITING)))
          .orderBy(desc(runs.id))
          .limit(1)
          .get(),
      ),

    interruptRun: (id, reason, at) =>
      run(() => {
        orm
          .update(runs)
          .set({ status: 'interrupted', reason, updatedAt: at })
          .where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)))
          .run();
        return orm.select().from(runs).where(eq(runs.id, id)).get();
      }),

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
        orm
          .update(runs)
          .set({ status: 'queued', reason, updatedAt: at })
          .where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)))
          .run();
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
          .set({
            status: outcome.status,
            reason: outcome.reason,
            finishedAt: outcome.at,
            updatedAt: outcome.at,
            ...itemCounts(counts),
          })
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
        const { upsertSnapshot } = statements();
        for (const row of rows) upsertSnapshot.run(...snapshotParams(row));
      }),

    getSnapshot: (connection, product, lot) =>
      run(() =>
        orm
          .select()
          .from(snapshots)
          .where(
            and(
              eq(snapshots.connection, connection),
              eq(snapshots.productExternalCode, product),
              eq(snapshots.lotCode, lot ?? ''),
            ),
          )
          .get(),
      ),

    expected: (connection, products, cut) =>
      run(() => {
        const codes = JSON.stringify(products);
        const base = statements()
          .snapshots.all(connection, codes)
          .map(([productExternalCode, lotCode, existence, asOf]) => ({
            productExternalCode,
            lotCode,
            existence,
            asOf: new Date(asOf),
          }));
        const sums = statements()
          .ledgerSums.all(connection, codes, cut.getTime())
          .map(([productExternalCode, lotCode, quantity, n]) => ({ productExternalCode, lotCode, quantity, n }));
        return mergeExpected(base, sums);
      }),
  };
}
