import { OpenAPIHono } from '@hono/zod-openapi';
import { Scalar } from '@scalar/hono-api-reference';
import { adminRoutes } from './admin/routes/index.js';
import type { ServiceDeps } from './deps.js';
import { erpFeedRoutes } from './erp/feed-routes.js';
import { healthRoutes } from './health.js';
import { inboundRoutes } from './inbound/routes.js';
import { validationFailed } from './lib/errors.js';
import { bodyLimit, onError, onNotFound, requestContext, type AppEnv } from './lib/http.js';
import { fieldIssues, issuesMessage } from './lib/zod-issues.js';
import { outboundRoutes } from './outbound/routes/index.js';
import { reconcileRoutes } from './reconcile/routes/index.js';

export type ServiceApp = OpenAPIHono<AppEnv>;

export const SERVICE_VERSION = '0.1.0';

/** The service's HTTP app, built from its dependencies. It never listens: main.ts does. */
export function buildApp(deps: ServiceDeps): ServiceApp {
  const app = new OpenAPIHono<AppEnv>({
    // Validation failures of zod-openapi routes get the same body as every other error.
    defaultHook: (result) => {
      if (!result.success) throw validationFailed(issuesMessage(result.error), fieldIssues(result.error));
    },
  });
  app.use('*', requestContext(deps.logger));
  app.use('*', bodyLimit(deps.config.bodyLimitBytes));
  app.onError(onError);
  app.notFound(onNotFound);

  app.route(
    '/',
    healthRoutes([
      { name: 'store', check: () => deps.store.ping() },
      { name: 'queue', check: () => deps.queue.ping() },
    ]),
  );
  app.route('/', outboundRoutes(deps));
  app.route('/', inboundRoutes(deps));
  app.route('/', erpFeedRoutes(deps));
  app.route('/', reconcileRoutes(deps));
  app.route('/', adminRoutes(deps));
  app.get('/metrics', async (c) => {
    return c.text(await deps.metrics.metrics(), 200, { 'content-type': deps.metrics.contentType });
  });

  // Rooms' routes declare these schemes by name in their `security` (see docs/architecture.md).
  app.openAPIRegistry.registerComponent('securitySchemes', 'erpBearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'The connection\'s ERP_API_TOKEN; it selects the connection.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'webhookBasic', {
    type: 'http',
    scheme: 'basic',
    description: 'The Basic credentials configured for the connection in the WMS webhook settings.',
  });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'wms-sync',
      version: SERVICE_VERSION,
      description: 'Webhook receiver for the WMS and the ERP API of wms-sync.',
    },
    // The API reference sends its requests here, not to the address the service is bound to.
    ...(deps.config.publicUrl ? { servers: [{ url: deps.config.publicUrl }] } : {}),
  });
  app.get('/docs', Scalar({ url: '/openapi.json', pageTitle: 'wms-sync API' }));
  return app;
}
