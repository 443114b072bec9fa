import type { Counter, Registry } from 'prom-client';
import { sharedCounter } from '../lib/metrics.js';
import type { ReconciliationRun } from '../store/index.js';

/** Reconciliation's metrics, on the service's own registry (see lib/metrics.ts). */
export interface ReconcileMetrics {
  runs: Counter<'connection' | 'status'>;
  drift: Counter<'connection'>;
}

export function reconcileMetrics(registry: Registry): ReconcileMetrics {
  return {
    runs: sharedCounter(
      registry,
      'wms_sync_reconcile_runs_total',
      'Reconciliation runs finished, by status (completed, partial: some batches failed, failed)',
      ['connection', 'status'],
    ),
    drift: sharedCounter(
      registry,
      'wms_sync_reconcile_drift_total',
      'Product/lot pairs whose WMS stock differed from the expected figure, found by finished runs',
      ['connection'],
    ),
  };
}

/** Counts one finished run (the caller passes each run once, when it finishes). */
export function countFinishedRun(metrics: ReconcileMetrics, run: ReconciliationRun): void {
  metrics.runs.inc({ connection: run.connection, status: run.status });
  if (run.driftCount > 0) metrics.drift.inc({ connection: run.connection }, run.driftCount);
}
