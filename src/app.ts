import { OpenAPIHono } from '@hono/zod-openapi';
import { presentsAdminToken } from './admin/auth.js';
import { adminRoutes } from './admin/routes/index.js';
import type { ConsoleOptions } from './console/env.js';
import { consoleRoutes } from './console/routes.js';
import type { ServiceDeps } from './deps.js';
import { erpFeedRoutes } from './erp/feed/routes.js';
import { healthRoutes } from './health.js';
import { inboundRoutes } from './inbound/routes.js';
import { apiReferencePage, apiReferenceScript } from './lib/api-reference.js';
import { AppError, validationFailed } from './lib/errors.js';
import { type AppEnv, bodyLimit, onError, onNotFound, requestContext } from './lib/http.js';
import { fieldIssues, issuesMessage } from './lib/zod-issues.js';
import { metricsRoutes } from './metrics-routes.js';
import { pushRoutes } from './push/routes/index.js';
import { reconcileRoutes } from './reconcile/routes/index.js';
import { isStoreUnavailable } from './store/unavailable.js';

export type ServiceApp = OpenAPIHono<AppEnv>;

export const SERVICE_VERSION = '0.1.0';

/** The database did not answer: the same request can succeed once it is back. */
const STORE_UNAVAILABLE = new AppError(
  503,
  'unavailable',
  'The database is unreachable; try again shortly',
  undefined,
  { 'Retry-After': '5' },
);

export const NO_CONNECTION_MESSAGE =
  'no connection configured: set WMS_BASE_URL, WMS_CLIENT_ID, WMS_CLIENT_SECRET, WEBHOOK_USERNAME, WEBHOOK_PASSWORD and ERP_API_TOKEN (or CONNECTIONS_FILE); until then every webhook and ERP request is refused';
/** Where /docs loads the reference's browser bundle from. */
export const DOCS_SCRIPT_PATH = '/docs/reference.js';

/** The service's HTTP app, built from its dependencies. It never listens: main.ts does. */
export function buildApp(deps: ServiceDeps, options: ConsoleOptions = {}): ServiceApp {
  const app = new OpenAPIHono<AppEnv>({
    // Validation failures of zod-openapi routes get the same body as every other error.
    defaultHook: (result) => {
      if (!result.success) throw validationFailed(issuesMessage(result.error), fieldIssues(result.error));
    },
  });
  app.use('*', requestContext(deps.logger));
  app.use('*', bodyLimit(deps.config.bodyLimitBytes));
  app.use('*', async (c, next) => {
    c.set('authFailures', deps.authFailures);
    await next();
  });
  app.onError((err, c) => {
    if (!(err instanceof AppError) && isStoreUnavailable(err)) {
      c.get('log')?.warn({ err: err.message }, 'database unreachable: answered 503');
      return onError(STORE_UNAVAILABLE, c);
    }
    return onError(err, c);
  });
  app.notFound(onNotFound);

  app.route(
    '/',
    healthRoutes(
      [
        { name: 'store', check: () => deps.store.ping() },
        { name: 'queue', check: () => deps.queue.ping() },
        {
          name: 'connections',
          check: async () => {
            if (deps.connections.all().length === 0) throw new Error(NO_CONNECTION_MESSAGE);
          },
        },
      ],
      { showsReasons: (header) => presentsAdminToken(header, deps.config.admin.tokens) },
    ),
  );
  app.route('/', pushRoutes(deps));
  app.route('/', inboundRoutes(deps));
  app.route('/', erpFeedRoutes(deps));
  app.route('/', reconcileRoutes(deps));
  app.route('/', adminRoutes(deps));
  app.route('/', consoleRoutes(deps, options));
  // With METRICS_PORT, /metrics is served on that listener only (main.ts), not on the public one.
  if (deps.config.metrics.port === undefined) app.route('/', metricsRoutes(deps));

  // Rooms' routes declare these schemes by name in their `security` (see docs/architecture.md).
  app.openAPIRegistry.registerComponent('securitySchemes', 'erpBearer', {
    type: 'http',
    scheme: 'bearer',
    description: "The connection's ERP_API_TOKEN; it selects the connection.",
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
  // The reference's script is served from the installed package: the page works with no internet.
  app.get(DOCS_SCRIPT_PATH, apiReferenceScript());
  app.get('/docs', apiReferencePage({ title: 'wms-sync API', specUrl: '/openapi.json', scriptUrl: DOCS_SCRIPT_PATH }));
  return app;
}
