/** Movements rolled up by the ledger's retention: their source, so they are told apart from learnt ones. */
export const OPENING_BALANCE_SOURCE = 'opening-balance';

/** What one ledger prune did (or, on a dry run, would do). */
export interface LedgerPruneCounts {
  /** Movements already inside their pair's baseline (reconciliation never counts them again): removed. */
  removed: number;
  /** Movements still counted on top of the baseline (or with none): rolled into their pair's opening balance. */
  folded: number;
  /** Opening-balance rows written (one per product/lot that had movements to roll up). */
  openings: number;
}

/**
 * Retention of the service's tables (docs/operations.md). Each method handles rows older than
 * `before`, in bounded chunks (other writers interleave), and with `dryRun` only counts. Nothing
 * an event could still need is removed: the rows an event wrote (feed entry, movements) stay as
 * long as its raw body does, since processing it again would write them again.
 */
export interface RetentionRepo {
  /**
   * Empties the raw body of `status` events received before `before` (`payload` '' and
   * `payload_pruned_at` set); the row stays as the event's dedupe key. Returns how many.
   */
  pruneEventBodies(status: 'processed' | 'rejected', before: Date, at: Date, dryRun: boolean): Promise<number>;
  /** Deletes events whose body is gone and which were neither received nor repeated since `before`. */
  pruneEventKeys(before: Date, dryRun: boolean): Promise<number>;
  /** Deletes feed entries created before `before` whose event has no body any more (or that have no event). */
  pruneFeed(before: Date, dryRun: boolean): Promise<number>;
  /**
   * Ledger movements created and timed before `before` (and whose event has no body any more):
   * those inside their pair's baseline are removed; the others are replaced by one opening-balance
   * movement per pair (their sum, at their latest time and creation), so every figure
   * reconciliation computes (`expected` for any cut after `before`) stays the same.
   */
  pruneLedger(before: Date, dryRun: boolean): Promise<LedgerPruneCounts>;
  /** Deletes finished reconciliation runs (finished before `before`) and their items; baselines stay. */
  pruneReconciliationRuns(before: Date, dryRun: boolean): Promise<{ runs: number; items: number }>;
  /** Deletes synced documents and document cancels last changed before `before` (products and delivery points stay). */
  pruneSyncedDocuments(before: Date, dryRun: boolean): Promise<number>;
}
