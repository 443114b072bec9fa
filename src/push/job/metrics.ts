import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/index.js';

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  // Registered once per registry, reused by every worker built on it.
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function pushMetrics(registry: Registry) {
  return {
    pushes: counter(registry, 'wms_sync_wms_push_outcomes_total', 'Push job outcomes per entity', [
      'entity',
      'outcome',
    ] as const),
  };
}

/**
 * Gauges read at scrape time: WMS pushes per state, and how long the pending record that
 * changed least recently has been without a change. A push that stalls (no job left, nothing
 * recorded) shows here as an age that only grows.
 */
export function registerPushGauges(registry: Registry, deps: { store: Pick<Store, 'pushes'>; clock: Clock }): void {
  if (registry.getSingleMetric('wms_sync_wms_pushes')) return;
  let summary: ReturnType<Store['pushes']['stateSummary']> | undefined;
  // Both gauges are collected in one scrape: one query serves them.
  const read = () =>
    (summary ??= deps.store.pushes.stateSummary().finally(() => setImmediate(() => (summary = undefined))));
  new Gauge<'state'>({
    name: 'wms_sync_wms_pushes',
    help: 'WMS pushes (what the ERP asked to exist in the WMS) by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      for (const [state, n] of Object.entries((await read()).counts)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'wms_sync_wms_pushes_oldest_pending_seconds',
    help: 'Seconds since the pending WMS push that changed least recently last changed (0 when none is pending)',
    registers: [registry],
    async collect() {
      const { oldestPendingChange } = await read();
      this.set(oldestPendingChange ? Math.max(0, (deps.clock.nowMs() - oldestPendingChange.getTime()) / 1000) : 0);
    },
  });
}
