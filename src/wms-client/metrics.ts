import { Counter, type Registry } from 'prom-client';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { wmsClients, type WmsClients } from './index.js';

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Counter<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/**
 * The service's WMS clients: one per connection for the whole process (so one token cache per
 * connection, however many rooms call the WMS), counting calls and token requests in `registry`.
 */
export function instrumentedWmsClients(options: {
  registry: Registry;
  timeoutMs: number;
  maxConcurrency: number;
  clock: Clock;
  logger: Logger;
  /** Aborts every call in flight and to come (the process is stopping). */
  signal?: AbortSignal;
}): WmsClients {
  const calls = counter(options.registry, 'wms_sync_wms_requests_total', 'HTTP calls to the WMS API', ['connection', 'operation', 'status'] as const);
  const tokens = counter(options.registry, 'wms_sync_wms_token_requests_total', 'Token requests to the WMS', ['connection'] as const);
  return wmsClients({
    timeoutMs: options.timeoutMs,
    maxConcurrency: options.maxConcurrency,
    clock: options.clock,
    logger: options.logger,
    ...(options.signal ? { signal: options.signal } : {}),
    onCall: (connection, info) => calls.inc({ connection, operation: info.operation, status: String(info.status) }),
    onTokenRequest: (connection) => tokens.inc({ connection }),
  });
}
