import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/reconciliation-schema.js';
import type { ReconciliationItemStatus, ReconciliationStatus, ReconciliationTrigger } from '../values.js';

export type ReconciliationRun = InferSelectModel<typeof tables.reconciliationRuns>;
export type ReconciliationItem = InferSelectModel<typeof tables.reconciliationItems>;
export type StockSnapshot = InferSelectModel<typeof tables.reconciliationSnapshots>;

/** Counters a run adds to as its batches are written (so a reader sees progress). */
export const RUN_COUNTERS = [
  'productsChecked',
  'productsFailed',
  'rowsChecked',
  'rowsRechecked',
  'requests',
  'driftCount',
  'notFoundCount',
  'unsettledCount',
] as const;
export type RunCounter = (typeof RUN_COUNTERS)[number];

export interface RunOutcome {
  status: Extract<ReconciliationStatus, 'completed' | 'partial' | 'failed'>;
  reason: string | null;
  at: Date;
}

export interface NewReconciliationItem {
  runId: number;
  connection: string;
  productExternalCode: string;
  /** '' (or null) when the product has no lots. */
  lotCode: string | null;
  status: ReconciliationItemStatus;
  wmsExistence?: number | null;
  wmsAvailable?: number | null;
  expectedExistence?: number | null;
  baselineExistence?: number | null;
  movements?: number | null;
  delta?: number | null;
  observedAt?: Date | null;
  at: Date;
}

export interface NewStockSnapshot {
  connection: string;
  productExternalCode: string;
  lotCode: string | null;
  existence: number;
  available: number | null;
  asOf: Date;
  takenAt: Date;
  runId: number;
}

/**
 * The expected figure of one product/lot before comparison: the baseline (null when the pair was
 * never reconciled) and the net ledger movements that count on top of it.
 */
export interface ExpectedFigure {
  productExternalCode: string;
  lotCode: string;
  baseline: number | null;
  /** When the baseline's WMS figure was asked for (null without a baseline): names the baseline a drift departs from. */
  baselineAsOf: Date | null;
  /** Net quantity of the movements counted. */
  movements: number;
  /** How many movements were counted (0: the baseline alone). */
  movementCount: number;
}

/** Stock reconciliation: runs, what they found, and the per product/lot baseline. */
export interface ReconciliationRepo {
  createRun(input: { connection: string; trigger: ReconciliationTrigger; at: Date }): Promise<ReconciliationRun>;
  /** The run, whatever its connection (callers scope it). */
  getRun(id: number): Promise<ReconciliationRun | undefined>;
  /** The connection's runs, newest first, with an id below `beforeId` when given. */
  listRuns(connection: string, query: { limit: number; beforeId?: number }): Promise<ReconciliationRun[]>;
  /** The newest run of the connection still waiting to start (queued, or interrupted and waiting to start again). */
  findQueued(connection: string): Promise<ReconciliationRun | undefined>;
  /**
   * Marks a run that is not finished `interrupted` with a reason (its process is stopping; its job
   * starts it again). Returns the run as it is now (unchanged when it had already finished).
   */
  interruptRun(id: number, reason: string, at: Date): Promise<ReconciliationRun | undefined>;
  /**
   * Marks a queued (or interrupted running) run as running from `at`, counts the attempt and clears
   * its counters; undefined when the run does not exist or has already finished.
   */
  startRun(id: number, at: Date): Promise<ReconciliationRun | undefined>;
  setProductsTotal(id: number, total: number, at: Date): Promise<void>;
  /** Adds to the run's counters in one statement (safe from parallel batches). */
  addProgress(id: number, increments: Partial<Record<RunCounter, number>>, at: Date): Promise<void>;
  /** Back to queued with a reason (an attempt failed and the job will run again). */
  requeueRun(id: number, reason: string, at: Date): Promise<void>;
  /**
   * Ends a run that is not finished yet: status, reason, and the item counts taken from its items
   * (so items kept from an interrupted attempt count too).
   * Returns the run as it is now (unchanged when it had already finished).
   */
  finishRun(id: number, outcome: RunOutcome): Promise<ReconciliationRun | undefined>;
  /** Inserts items; an item already stored for the same run, product and lot is kept. Returns how many were new. */
  addItems(items: readonly NewReconciliationItem[]): Promise<number>;
  /** A run's items in id order, after `afterId`. */
  listItems(runId: number, query: { afterId?: number; limit: number }): Promise<ReconciliationItem[]>;
  /** Inserts or replaces the baseline of each product/lot. */
  saveSnapshots(rows: readonly NewStockSnapshot[]): Promise<void>;
  getSnapshot(
    connection: string,
    productExternalCode: string,
    lotCode: string | null,
  ): Promise<StockSnapshot | undefined>;
  /**
   * Expected figures of these products' product/lot pairs known to the service (a baseline, or
   * ledger movements), as of `cut`: the baseline plus the movements with `movementTime <= cut`
   * that are timed after the baseline's `asOf` or were learnt (created) after its `takenAt`;
   * without a baseline, every movement up to `cut`.
   */
  expected(connection: string, products: readonly string[], cut: Date): Promise<ExpectedFigure[]>;
}
