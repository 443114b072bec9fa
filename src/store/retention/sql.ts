import { type LedgerPruneCounts, OPENING_BALANCE_SOURCE, type RetentionRepo } from './contract.js';

/**
 * The retention statements, written once for both dialects (`?` placeholders; the Postgres adapter
 * numbers them) over a minimal executor, because the rules matter more than the dialect here.
 * Times are bound as Dates; each adapter turns them into its storage form.
 */
export interface RetentionDb {
  all<T>(sql: string, params: unknown[]): Promise<T[]>;
  /** Runs a write; returns the rows it changed. */
  run(sql: string, params: unknown[]): Promise<number>;
  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: RetentionDb) => Promise<T>): Promise<T>;
  /** A time column's value as read back (epoch ms on SQLite, a Date on Postgres). */
  date(value: unknown): Date;
}

/** Rows per statement: other writers get the database between chunks. */
const CHUNK = 2000;
/** Product/lot pairs rolled up per transaction. */
const PAIRS = 200;

/** The event that wrote a row still has its body, so processing it again would write the row again: keep it. */
const EVENT_GONE = (table: string) =>
  `(${table}.source_event_id IS NULL OR NOT EXISTS (SELECT 1 FROM inbound_events e WHERE e.id = ${table}.source_event_id AND e.payload_pruned_at IS NULL))`;

async function chunked(
  db: RetentionDb,
  dryRun: boolean,
  count: string,
  write: string,
  params: unknown[],
): Promise<number> {
  if (dryRun) return Number((await db.all<{ n: number | string }>(count, params))[0]?.n ?? 0);
  let total = 0;
  for (;;) {
    const n = await db.run(write, [...params, CHUNK]);
    total += n;
    if (n < CHUNK) return total;
  }
}

/** Old ledger rows: created and timed before the cutoff, not an opening balance, and their event's body gone. */
const candidate = (a: string) =>
  `${a}.created_at < ? AND ${a}.movement_time < ? AND ${a}.source <> '${OPENING_BALANCE_SOURCE}' AND ${EVENT_GONE(a)}`;
const LEDGER_CANDIDATE = candidate('l');
/** Inside the pair's baseline: reconciliation never counts it on top (ReconciliationRepo.expected). */
const COVERED = `EXISTS (SELECT 1 FROM reconciliation_snapshots s WHERE s.connection = l.connection AND s.product_external_code = l.product_external_code
  AND s.lot_code = l.lot_code AND l.movement_time <= s.as_of AND l.created_at <= s.taken_at)`;
const PAIR = 'l.connection = ? AND l.product_external_code = ? AND l.lot_code = ?';

export const openingKey = (product: string, lot: string) =>
  `${OPENING_BALANCE_SOURCE}:${JSON.stringify([product, lot])}`;

interface Pair {
  connection: string;
  product: string;
  lot: string;
}

/** One pair: covered rows go, the rest (with the earlier opening balance) become one opening balance. */
async function rollUp(db: RetentionDb, pair: Pair, before: Date, counts: LedgerPruneCounts): Promise<void> {
  const key = [pair.connection, pair.product, pair.lot];
  const old = `(${LEDGER_CANDIDATE} OR l.source = '${OPENING_BALANCE_SOURCE}')`;
  counts.removed += await db.run(
    `DELETE FROM stock_ledger WHERE id IN (SELECT l.id FROM stock_ledger l WHERE ${PAIR} AND ${old} AND ${COVERED})`,
    [...key, before, before],
  );
  const [agg] = await db.all<{
    n: number | string;
    q: number | null;
    mt: unknown;
    ca: unknown;
    fresh: number | string | null;
  }>(
    `SELECT count(*) AS n, sum(l.quantity) AS q, max(l.movement_time) AS mt, max(l.created_at) AS ca,
            sum(CASE WHEN l.source = '${OPENING_BALANCE_SOURCE}' THEN 0 ELSE 1 END) AS fresh
     FROM stock_ledger l WHERE ${PAIR} AND ${old}`,
    [...key, before, before],
  );
  const fresh = Number(agg?.fresh ?? 0);
  if (!agg || fresh === 0) return;
  await db.run(`DELETE FROM stock_ledger WHERE id IN (SELECT l.id FROM stock_ledger l WHERE ${PAIR} AND ${old})`, [
    ...key,
    before,
    before,
  ]);
  await db.run(
    `INSERT INTO stock_ledger (connection, product_external_code, lot_code, warehouse, quantity, movement_time, source, dedupe_key, source_event_id, created_at)
     VALUES (?, ?, ?, NULL, ?, ?, '${OPENING_BALANCE_SOURCE}', ?, NULL, ?)`,
    [...key, Number(agg.q ?? 0), db.date(agg.mt), openingKey(pair.product, pair.lot), db.date(agg.ca)],
  );
  counts.folded += fresh;
  counts.openings += 1;
}

async function pruneLedger(db: RetentionDb, before: Date, dryRun: boolean): Promise<LedgerPruneCounts> {
  const counts: LedgerPruneCounts = { removed: 0, folded: 0, openings: 0 };
  if (dryRun) {
    // What rollUp does: the candidates, and the opening balance of each pair that has some.
    const kept = `(${COVERED} OR l.source = '${OPENING_BALANCE_SOURCE}')`;
    const [row] = await db.all<{
      removed: number | string | null;
      folded: number | string | null;
      pairs: number | string;
    }>(
      `SELECT sum(CASE WHEN ${COVERED} THEN 1 ELSE 0 END) AS removed, sum(CASE WHEN ${kept} THEN 0 ELSE 1 END) AS folded,
              count(DISTINCT CASE WHEN ${kept} THEN NULL ELSE l.connection || '|' || l.product_external_code || '|' || l.lot_code END) AS pairs
       FROM stock_ledger l
       WHERE ${LEDGER_CANDIDATE} OR (l.source = '${OPENING_BALANCE_SOURCE}' AND EXISTS (SELECT 1 FROM stock_ledger l2
         WHERE l2.connection = l.connection AND l2.product_external_code = l.product_external_code AND l2.lot_code = l.lot_code AND ${candidate('l2')}))`,
      [before, before, before, before],
    );
    return { removed: Number(row?.removed ?? 0), folded: Number(row?.folded ?? 0), openings: Number(row?.pairs ?? 0) };
  }
  for (;;) {
    const pairs = await db.all<Pair>(
      `SELECT DISTINCT l.connection AS connection, l.product_external_code AS product, l.lot_code AS lot FROM stock_ledger l WHERE ${LEDGER_CANDIDATE} LIMIT ${PAIRS}`,
      [before, before],
    );
    if (pairs.length === 0) return counts;
    // Each pair's rows change in one transaction: a reader sees the movements or their opening balance, never both.
    await db.transaction(async (tx) => {
      for (const pair of pairs) await rollUp(tx, pair, before, counts);
    });
  }
}

export function retentionRepo(db: RetentionDb): RetentionRepo {
  return {
    pruneEventBodies: (status, before, at, dryRun) => {
      const where = 'status = ? AND received_at < ? AND payload_pruned_at IS NULL';
      return chunked(
        db,
        dryRun,
        `SELECT count(*) AS n FROM inbound_events WHERE ${where}`,
        `UPDATE inbound_events SET payload = '', payload_pruned_at = ? WHERE id IN (SELECT id FROM inbound_events WHERE ${where} LIMIT ?)`,
        dryRun ? [status, before] : [at, status, before],
      );
    },

    pruneEventKeys: (before, dryRun) => {
      const where =
        "status IN ('processed', 'rejected') AND payload_pruned_at IS NOT NULL AND received_at < ? AND (last_duplicate_at IS NULL OR last_duplicate_at < ?)";
      return chunked(
        db,
        dryRun,
        `SELECT count(*) AS n FROM inbound_events WHERE ${where}`,
        `DELETE FROM inbound_events WHERE id IN (SELECT id FROM inbound_events WHERE ${where} LIMIT ?)`,
        [before, before],
      );
    },

    pruneFeed: (before, dryRun) => {
      const where = `c.created_at < ? AND ${EVENT_GONE('c')}`;
      return chunked(
        db,
        dryRun,
        `SELECT count(*) AS n FROM feed_entries c WHERE ${where}`,
        `DELETE FROM feed_entries WHERE id IN (SELECT c.id FROM feed_entries c WHERE ${where} LIMIT ?)`,
        [before],
      );
    },

    pruneLedger: (before, dryRun) => pruneLedger(db, before, dryRun),

    pruneReconciliationRuns: async (before, dryRun) => {
      const finished = "status IN ('completed', 'partial', 'failed') AND finished_at < ?";
      if (dryRun) {
        const [row] = await db.all<{ runs: number | string; items: number | string }>(
          `SELECT (SELECT count(*) FROM reconciliation_runs WHERE ${finished}) AS runs,
                  (SELECT count(*) FROM reconciliation_items WHERE run_id IN (SELECT id FROM reconciliation_runs WHERE ${finished})) AS items`,
          [before, before],
        );
        return { runs: Number(row?.runs ?? 0), items: Number(row?.items ?? 0) };
      }
      const out = { runs: 0, items: 0 };
      for (;;) {
        const ids = (
          await db.all<{ id: number | string }>(
            `SELECT id FROM reconciliation_runs WHERE ${finished} ORDER BY id LIMIT 100`,
            [before],
          )
        ).map((r) => Number(r.id));
        if (ids.length === 0) return out;
        const list = ids.join(', ');
        await db.transaction(async (tx) => {
          out.items += await tx.run(`DELETE FROM reconciliation_items WHERE run_id IN (${list})`, []);
          out.runs += await tx.run(`DELETE FROM reconciliation_runs WHERE id IN (${list})`, []);
        });
      }
    },

    pruneSyncedDocuments: (before, dryRun) => {
      const where =
        "state = 'synced' AND entity IN ('document', 'document-cancel') AND updated_at < ? AND locked_by IS NULL";
      return chunked(
        db,
        dryRun,
        `SELECT count(*) AS n FROM wms_pushes WHERE ${where}`,
        `DELETE FROM wms_pushes WHERE id IN (SELECT id FROM wms_pushes WHERE ${where} LIMIT ?)`,
        [before],
      );
    },
  };
}
