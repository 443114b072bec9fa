import type { Counter, Registry } from 'prom-client';
import { sharedCounter } from '../lib/metrics.js';
import type { ReconciliationRun } from '../store/index.js';

/** Reconciliation's metrics, on the service's own registry (see lib/metrics.ts). */
export interface ReconcileMetrics {
  runs: Counter<'connection' | 'status'>;
  drift: Counter<'connection'>;
}

/**
 * Gets the metrics, creating them on first use. With `connections`, every connection's series
 * start at 0, so the first drift or failure of a process is an increase Prometheus sees (a series
 * born at 1 is not one).
 */
export function reconcileMetrics(registry: Registry, connections: readonly { name: string }[] = []): ReconcileMetrics {
  const metrics = {
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
  for (const { name } of connections) {
    for (const status of ['completed', 'partial', 'failed']) metrics.runs.inc({ connection: name, status }, 0);
    metrics.drift.inc({ connection: name }, 0);
  }
  return metrics;
}

/** Counts one finished run (the caller passes each run once, when it finishes). */
export function countFinishedRun(metrics: ReconcileMetrics, run: ReconciliationRun): void {
  metrics.runs.inc({ connection: run.connection, status: run.status });
  if (run.driftCount > 0) metrics.drift.inc({ connection: run.connection }, run.driftCount);
}
