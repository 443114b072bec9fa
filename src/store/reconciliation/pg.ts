import { and, asc, desc, eq, gt, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { PgOrm } from '../pg/database.js';
import {
  reconciliationItems as items,
  reconciliationRuns as runs,
  reconciliationSnapshots as snapshots,
} from '../pg/reconciliation-schema.js';
import { type ReconciliationRepo, RUN_COUNTERS } from './contract.js';
import { chunked, itemRow, mergeExpected, runRow, snapshotRow, startUpdate } from './rows.js';

/*
 * A run's per-batch reads, written so that their plan does not depend on table statistics: one
 * index lookup per asked product (`unnest` + LATERAL; OFFSET 0 keeps the planner from flattening
 * the subqueries), and one primary-key lookup of the baseline per movement. With a join over the
 * tables instead, a baselines table grown by a first run but not analyzed yet (autovacuum lags, or
 * is off) made the planner read every baseline of the connection for each batch: 35 ms instead of
 * under 1 ms per batch of 100 products (bench:reconcile on Postgres).
 */
const SNAPSHOTS_SQL = `
  SELECT s.product_external_code AS product, s.lot_code AS lot, s.existence, s.as_of
  FROM unnest($2::text[]) AS p(code)
  CROSS JOIN LATERAL (
    SELECT product_external_code, lot_code, existence, as_of FROM reconciliation_snapshots
    WHERE connection = $1 AND product_external_code = p.code OFFSET 0
  ) s`;

const LEDGER_SUMS_SQL = `
  SELECT m.product_external_code AS product, m.lot_code AS lot, sum(m.quantity) AS quantity, count(*) AS n
  FROM unnest($2::text[]) AS p(code)
  CROSS JOIN LATERAL (
    SELECT product_external_code, lot_code, quantity, movement_time, created_at FROM stock_ledger
    WHERE connection = $1 AND product_external_code = p.code AND movement_time <= $3 OFFSET 0
  ) m
  LEFT JOIN LATERAL (
    SELECT as_of, taken_at FROM reconciliation_snapshots
    WHERE connection = $1 AND product_external_code = m.product_external_code AND lot_code = m.lot_code OFFSET 0
  ) s ON true
  WHERE s.as_of IS NULL OR m.movement_time > s.as_of OR m.created_at > s.taken_at
  GROUP BY m.product_external_code, m.lot_code`;

/**
 * Baselines upserted as one statement of arrays, prepared once: a first run writes one for every
 * row (a million for a big warehouse), and drizzle's multi-row insert built and sent every value
 * as a parameter of its own. The rows' keys must be distinct (as in any one upsert).
 */
const SAVE_SNAPSHOTS_SQL = `
  INSERT INTO reconciliation_snapshots (connection, product_external_code, lot_code, existence, available, as_of, taken_at, run_id)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::timestamptz[], $7::timestamptz[], $8::bigint[])
  ON CONFLICT (connection, product_external_code, lot_code) DO UPDATE SET
    existence = excluded.existence, available = excluded.available, as_of = excluded.as_of, taken_at = excluded.taken_at, run_id = excluded.run_id`;

const FINISHED: ('completed' | 'partial' | 'failed')[] = ['completed', 'partial', 'failed'];
const WAITING: ('queued' | 'interrupted')[] = ['queued', 'interrupted'];

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
      (
        await orm
          .select()
          .from(runs)
          .where(and(eq(runs.connection, connection), inArray(runs.status, WAITING)))
          .orderBy(desc(runs.id))
          .limit(1)
      )[0],

    interruptRun: async (id, reason, at) => {
      await orm
        .update(runs)
        .set({ status: 'interrupted', reason, updatedAt: at })
        .where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)));
      return getRun(id);
    },

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
      await orm
        .update(runs)
        .set({ status: 'queued', reason, updatedAt: at })
        .where(and(eq(runs.id, id), notInArray(runs.status, FINISHED)));
    },

    finishRun: async (id, outcome) => {
      // One statement: the counts are read from the items as the update runs.
      const count = (status: string) =>
        sql<number>`(SELECT count(*) FROM ${items} WHERE ${items.runId} = ${id} AND ${items.status} = ${status})`;
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
      if (rows.length === 0) return;
      const r = rows.map(snapshotRow);
      await orm.$client.query({
        name: 'reconciliation_save_snapshots',
        text: SAVE_SNAPSHOTS_SQL,
        values: [
          r.map((x) => x.connection),
          r.map((x) => x.productExternalCode),
          r.map((x) => x.lotCode),
          r.map((x) => x.existence),
          r.map((x) => x.available),
          r.map((x) => x.asOf),
          r.map((x) => x.takenAt),
          r.map((x) => x.runId),
        ],
      });
    },

    getSnapshot: async (connection, product, lot) =>
      (
        await orm
          .select()
          .from(snapshots)
          .where(
            and(
              eq(snapshots.connection, connection),
              eq(snapshots.productExternalCode, product),
              eq(snapshots.lotCode, lot ?? ''),
            ),
          )
      )[0],

    expected: async (connection, products, cut) => {
      // Sequential on purpose: a run has several batches in flight, each would hold two connections.
      const base = await orm.$client.query<{ product: string; lot: string; existence: number; as_of: Date }>(
        SNAPSHOTS_SQL,
        [connection, products],
      );
      const sums = await orm.$client.query<{ product: string; lot: string; quantity: number; n: string }>(
        LEDGER_SUMS_SQL,
        [connection, products, cut],
      );
      return mergeExpected(
        base.rows.map((r) => ({
          productExternalCode: r.product,
          lotCode: r.lot,
          existence: r.existence,
          asOf: r.as_of,
        })),
        sums.rows.map((r) => ({
          productExternalCode: r.product,
          lotCode: r.lot,
          quantity: r.quantity,
          n: Number(r.n),
        })),
      );
    },
  };
}
