import { Counter, type Registry } from 'prom-client';

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Counter<L> {
  // Registered once per registry, reused by every worker built on it.
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function outboundMetrics(registry: Registry) {
  return {
    pushes: counter(registry, 'wms_sync_outbound_pushes_total', 'Push job outcomes per entity', ['entity', 'outcome'] as const),
  };
}
