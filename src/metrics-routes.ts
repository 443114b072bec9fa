import { Hono } from 'hono';
import { presentsBearer } from './admin/auth.js';
import type { ServiceDeps } from './deps.js';
import { registerInboundGauges } from './inbound/metrics.js';
import { authRefusal } from './lib/auth-failures.js';
import { unauthorized } from './lib/errors.js';
import { type AppEnv, onError, onNotFound, requestContext } from './lib/http.js';
import { registerPushGauges } from './push/job/metrics.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="wms-sync metrics"' };

/**
 * `GET /metrics` (Prometheus text). Behind `METRICS_TOKEN` as a Bearer when it is set (compared in
 * constant time; failures count like any other authentication). The gauges read at scrape time are
 * registered here too, so a worker-only process serving metrics shows them.
 */
export function metricsRoutes(
  deps: Pick<ServiceDeps, 'config' | 'metrics' | 'store' | 'queue' | 'clock' | 'connections'>,
): Hono<AppEnv> {
  registerInboundGauges(deps.metrics, deps);
  registerPushGauges(deps.metrics, deps);
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

/** The app of `METRICS_PORT`: /metrics and nothing else (every other path 404). */
export function metricsApp(deps: ServiceDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requestContext(deps.logger));
  app.use('*', async (c, next) => {
    c.set('authFailures', deps.authFailures);
    await next();
  });
  app.onError(onError);
  app.notFound(onNotFound);
  app.route('/', metricsRoutes(deps));
  return app;
}
