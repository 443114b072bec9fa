import { OpenAPIHono } from '@hono/zod-openapi';
import { presentsAdminToken } from './admin/auth.js';
import { adminRoutes } from './admin/routes/index.js';
import type { ConsoleOptions } from './console/env.js';
import { consoleRoutes } from './console/routes.js';
import type { ServiceDeps } from './deps.js';
import { erpFeedRoutes } from './erp/feed/routes.js';
import { healthRoutes, readinessProbes } from './health.js';
import { inboundRoutes } from './inbound/routes.js';
import { apiReferencePage, apiReferenceScript } from './lib/api-reference.js';
import { AppError, validationFailed } from './lib/errors.js';
import { type AppEnv, bodyLimit, onError, onNotFound, requestContext } from './lib/http.js';
import { countResponses } from './lib/metrics.js';
import { securityHeaders } from './lib/security-headers.js';
import { traceRequests } from './lib/trace-requests.js';
import { fieldIssues, issuesMessage } from './lib/zod-issues.js';
import { metricsRoutes } from './metrics-routes.js';
import { OPENAPI_PATH, registerServiceDocument } from './openapi.js';
import { pushRoutes } from './push/routes/index.js';
import { reconcileRoutes } from './reconcile/routes/index.js';
import { isStoreUnavailable } from './store/unavailable.js';

export type ServiceApp = OpenAPIHono<AppEnv>;

/** The database did not answer: the same request can succeed once it is back. */
const STORE_UNAVAILABLE = new AppError(
  503,
  'unavailable',
  'The database is unreachable or its disk is full; try again shortly',
  undefined,
  { 'Retry-After': '5' },
);

export { NO_CONNECTION_MESSAGE } from './health.js';
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
  if (deps.tracing.enabled) app.use('*', traceRequests(deps.tracing));
  app.use('*', countResponses(deps.metrics));
  app.use('*', requestContext(deps.logger));
  app.use('*', securityHeaders({ publicUrl: deps.config.publicUrl, htmlPaths: ['/docs'] }));
  app.use('*', bodyLimit(deps.config.bodyLimitBytes));
  app.use('*', async (c, next) => {
    c.set('authFailures', deps.authFailures);
    await next();
  });
  app.onError((err, c) => {
    if (!(err instanceof AppError) && isStoreUnavailable(err)) {
      deps.space.noteFailure(err);
      c.get('log')?.warn({ err: err.message }, 'database unreachable or its disk full: answered 503');
      return onError(STORE_UNAVAILABLE, c);
    }
    return onError(err, c);
  });
  app.notFound(onNotFound);

  app.route(
    '/',
    healthRoutes(readinessProbes(deps), {
      showsReasons: (header) => presentsAdminToken(header, deps.config.admin.tokens),
    }),
  );
  app.route('/', pushRoutes(deps));
  app.route('/', inboundRoutes(deps));
  app.route('/', erpFeedRoutes(deps));
  app.route('/', reconcileRoutes(deps));
  app.route('/', adminRoutes(deps));
  app.route('/', consoleRoutes(deps, options));
  // With METRICS_PORT, /metrics is served on that listener only (main.ts), not on the public one.
  if (deps.config.metrics.port === undefined) app.route('/', metricsRoutes(deps));

  registerServiceDocument(app, deps.config.publicUrl);
  // The reference's script is served from the installed package: the page works with no internet.
  app.get(DOCS_SCRIPT_PATH, apiReferenceScript());
  app.get('/docs', apiReferencePage({ title: 'wms-sync API', specUrl: OPENAPI_PATH, scriptUrl: DOCS_SCRIPT_PATH }));
  return app;
}
