import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { Counter, collectDefaultMetrics, Registry } from 'prom-client';

/**
 * One Prometheus registry per running service (never prom-client's global one), so that tests
 * building several apps in one process do not share counters. Rooms add their own metrics to it.
 */
export function createMetricsRegistry(options: { defaultMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'wms_sync_' });
  return registry;
}

/** Gets a counter from the registry, creating it on first use (apps built twice share it). */
export function sharedCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/** Requests that matched no route are counted under this route, so scanners cannot grow the label set. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts every answer by route pattern (`/webhooks/:connection/:kind`, never the concrete path:
 * the label set stays bounded) and status, for alerts on 5xx per route.
 */
export function countResponses(registry: Registry): MiddlewareHandler {
  const responses = sharedCounter(
    registry,
    'wms_sync_http_responses_total',
    'HTTP answers by route pattern and status code',
    ['route', 'status'],
  );
  return async (c, next) => {
    await next();
    const route = routePath(c);
    responses.inc({ route: route === '*' || route === '/*' ? UNMATCHED_ROUTE : route, status: String(c.res.status) });
  };
}
