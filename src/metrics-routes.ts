import { Hono } from 'hono';
import { Gauge, type Registry } from 'prom-client';
import { presentsBearer } from './admin/auth.js';
import type { ServiceDeps } from './deps.js';
import { readinessProbes } from './health.js';
import { registerInboundGauges } from './inbound/metrics.js';
import { authRefusal } from './lib/auth-failures.js';
import { unauthorized } from './lib/errors.js';
import { type AppEnv, onError, onNotFound, requestContext } from './lib/http.js';
import { countResponses } from './lib/metrics.js';
import { probe } from './lib/probe.js';
import { securityHeaders } from './lib/security-headers.js';
import { registerPushGauges } from './push/job/metrics.js';
import { registerStorageGauges } from './store/space-metrics.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="wms-sync metrics"' };

/**
 * `GET /metrics` (Prometheus text). Behind `METRICS_TOKEN` as a Bearer when it is set (compared in
 * constant time; failures count like any other authentication). The gauges read at scrape time are
 * registered here too, so a worker-only process serving metrics shows them.
 */
export function metricsRoutes(
  deps: Pick<ServiceDeps, 'config' | 'metrics' | 'store' | 'space' | 'queue' | 'clock' | 'connections'>,
): Hono<AppEnv> {
  registerInboundGauges(deps.metrics, deps);
  registerStorageGauges(deps.metrics, deps.space);
  registerPushGauges(deps.metrics, deps);
  registerServiceGauges(deps.metrics, deps);
  const token = deps.config.metrics.token;
  const app = new Hono<AppEnv>();
  app.get('/metrics', async (c) => {
    const header = c.req.header('authorization');
    if (token && !presentsBearer(header, token)) {
      throw authRefusal(
        c,
        'metrics',
        'bearer',
        unauthorized(header ? 'Invalid metrics bearer token' : 'Missing metrics bearer token', CHALLENGE),
      );
    }
    return c.text(await deps.metrics.metrics(), 200, { 'content-type': deps.metrics.contentType });
  });
  return app;
}

/**
 * Gauges of the process as a whole, read at scrape time: each readiness check (what `/readyz`
 * answers), and the job queue's ready jobs and how long the oldest of them has waited for a worker.
 */
export function registerServiceGauges(
  registry: Registry,
  deps: Pick<ServiceDeps, 'store' | 'space' | 'queue' | 'clock' | 'connections'>,
): void {
  if (registry.getSingleMetric('wms_sync_ready')) return;
  const probes = readinessProbes(deps);
  new Gauge<'check'>({
    name: 'wms_sync_ready',
    help: 'Readiness checks of /readyz (check: store, queue, connections): 1 passing, 0 failing',
    labelNames: ['check'],
    registers: [registry],
    async collect() {
      const results = await Promise.all(probes.map(async (p) => [p.name, await probe(p.check, 2000)] as const));
      for (const [check, result] of results) this.set({ check }, result.ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'wms_sync_queue_ready_jobs',
    help: 'Jobs of every queue whose start time has come and that wait for a worker',
    registers: [registry],
    async collect() {
      this.set((await deps.queue.backlog()).ready);
    },
  });
  new Gauge({
    name: 'wms_sync_queue_oldest_ready_seconds',
    help: 'How long the oldest ready job of any queue has waited for a worker (0 when none waits)',
    registers: [registry],
    async collect() {
      const { oldestReadyAt } = await deps.queue.backlog();
      this.set(oldestReadyAt ? Math.max(0, (deps.clock.nowMs() - oldestReadyAt.getTime()) / 1000) : 0);
    },
  });
}

/** The app of `METRICS_PORT`: /metrics and nothing else (every other path 404). */
export function metricsApp(deps: ServiceDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', countResponses(deps.metrics));
  app.use('*', requestContext(deps.logger));
  app.use('*', securityHeaders({ publicUrl: deps.config.publicUrl, htmlPaths: [] }));
  app.use('*', async (c, next) => {
    c.set('authFailures', deps.authFailures);
    await next();
  });
  app.onError(onError);
  app.notFound(onNotFound);
  app.route('/', metricsRoutes(deps));
  return app;
}
