import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * One Prometheus registry per running service (never prom-client's global one), so that tests
 * building several apps in one process do not share counters. Rooms add their own metrics to it.
 */
export function createMetricsRegistry(options: { defaultMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'wms_sync_' });
  return registry;
}
