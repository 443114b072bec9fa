import type Database from 'better-sqlite3';
import type { NewStockSnapshot } from './contract.js';

/**
 * A run's per-batch statements, prepared once and fed the batch's product codes as one JSON array
 * (`json_each`), so the text never changes with the batch size. Building a drizzle query per batch
 * cost more than running it, and its garbage set the run's peak memory (bench:reconcile). Columns
 * are those of reconciliation-schema.ts; times are bound as epoch milliseconds, their storage form.
 */
export function prepareReconciliationStatements(db: Database.Database) {
  return {
    snapshots: db
      .prepare<[string, string], [string, string, number, number]>(
        `SELECT product_external_code, lot_code, existence, as_of FROM reconciliation_snapshots
         WHERE connection = ? AND product_external_code IN (SELECT value FROM json_each(?))`,
      )
      .raw(),
    // The movements counted on top of each pair's baseline (see ReconciliationRepo.expected).
    ledgerSums: db
      .prepare<[string, string, number], [string, string, number, number]>(
        `SELECT l.product_external_code, l.lot_code, sum(l.quantity), count(*)
         FROM stock_ledger l
         LEFT JOIN reconciliation_snapshots s
           ON s.connection = l.connection AND s.product_external_code = l.product_external_code AND s.lot_code = l.lot_code
         WHERE l.connection = ? AND l.product_external_code IN (SELECT value FROM json_each(?)) AND l.movement_time <= ?
           AND (s.as_of IS NULL OR l.movement_time > s.as_of OR l.created_at > s.taken_at)
         GROUP BY l.product_external_code, l.lot_code`,
      )
      .raw(),
    upsertSnapshot: db.prepare<[string, string, string, number, number | null, number, number, number]>(
      `INSERT INTO reconciliation_snapshots (connection, product_external_code, lot_code, existence, available, as_of, taken_at, run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (connection, product_external_code, lot_code) DO UPDATE SET
         existence = excluded.existence, available = excluded.available, as_of = excluded.as_of,
         taken_at = excluded.taken_at, run_id = excluded.run_id`,
    ),
  };
}

export type ReconciliationStatements = ReturnType<typeof prepareReconciliationStatements>;

export function snapshotParams(
  s: NewStockSnapshot,
): [string, string, string, number, number | null, number, number, number] {
  return [
    s.connection,
    s.productExternalCode,
    s.lotCode ?? '',
    s.existence,
    s.available,
    s.asOf.getTime(),
    s.takenAt.getTime(),
    s.runId,
  ];
}
