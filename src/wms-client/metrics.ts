import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { SharedBudget } from './adaptive/share.js';
import { type WmsClients, wmsClients } from './index.js';

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Counter<L> {
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
  initialConcurrency?: number;
  /** On Postgres: the processes share each connection's limit through it. */
  budget?: { shared: SharedBudget; holder: string };
  clock: Clock;
  logger: Logger;
  /** Aborts every call in flight and to come (the process is stopping). */
  signal?: AbortSignal;
}): WmsClients {
  const calls = counter(options.registry, 'wms_sync_wms_requests_total', 'HTTP calls to the WMS API', [
    'connection',
    'operation',
    'status',
  ] as const);
  const tokens = counter(options.registry, 'wms_sync_wms_token_requests_total', 'Token requests to the WMS', [
    'connection',
  ] as const);
  const limited = counter(
    options.registry,
    'wms_sync_wms_rate_limited_total',
    'WMS answers 429 (rate limited), per connection',
    ['connection'] as const,
  );
  const overloads = counter(
    options.registry,
    'wms_sync_wms_backoffs_total',
    'Signs of WMS overload the concurrency limit backed off on (429, 503, timeout)',
    ['connection', 'reason'] as const,
  );
  let clients: WmsClients | undefined;
  if (!options.registry.getSingleMetric('wms_sync_wms_concurrency_limit')) {
    new Gauge({
      name: 'wms_sync_wms_concurrency_limit',
      help: "Current adaptive limit of calls in flight to the WMS, per connection (the deployment's, when shared on Postgres)",
      labelNames: ['connection'] as const,
      registers: [options.registry],
      collect() {
        for (const client of clients?.all() ?? []) this.set({ connection: client.connection }, client.limiter.limit);
      },
    });
    new Gauge({
      name: 'wms_sync_wms_pace',
      help: "Calls per second the connection starts at most, learned from the WMS's 429s (the deployment's, when shared on Postgres); 0 while none was learned",
      labelNames: ['connection'] as const,
      registers: [options.registry],
      collect() {
        for (const client of clients?.all() ?? [])
          this.set({ connection: client.connection }, client.limiter.pace ?? 0);
      },
    });
    new Gauge({
      name: 'wms_sync_wms_token_failing_seconds',
      help: "Seconds since this process's token requests to a connection's WMS started failing with no success since (0 while they succeed)",
      labelNames: ['connection'] as const,
      registers: [options.registry],
      collect() {
        for (const client of clients?.all() ?? [])
          this.set({ connection: client.connection }, client.tokens.failingSeconds());
      },
    });
    new Gauge({
      name: 'wms_sync_wms_in_flight',
      help: 'Calls in flight to the WMS from this process, per connection',
      labelNames: ['connection'] as const,
      registers: [options.registry],
      collect() {
        for (const client of clients?.all() ?? []) this.set({ connection: client.connection }, client.limiter.active);
      },
    });
  }
  const log = options.logger;
  clients = wmsClients({
    timeoutMs: options.timeoutMs,
    maxConcurrency: options.maxConcurrency,
    ...(options.initialConcurrency !== undefined ? { initialConcurrency: options.initialConcurrency } : {}),
    ...(options.budget
      ? {
          budget: {
            ...options.budget,
            onError: (err: unknown) =>
              log.warn(
                { err: err instanceof Error ? err.message : String(err) },
                'shared WMS concurrency budget unreachable; using the local view',
              ),
          },
        }
      : {}),
    onLimiterSample: (connection, sample) => {
      if (sample.kind === 'ok') return;
      if (sample.kind === 'overload' && sample.status === 429) limited.inc({ connection });
      overloads.inc({ connection, reason: sample.kind === 'overload' ? String(sample.status) : 'timeout' });
    },
    clock: options.clock,
    logger: options.logger,
    ...(options.signal ? { signal: options.signal } : {}),
    onCall: (connection, info) => calls.inc({ connection, operation: info.operation, status: String(info.status) }),
    onTokenRequest: (connection) => tokens.inc({ connection }),
  });
  return clients;
}
