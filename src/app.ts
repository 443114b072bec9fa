import { OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from './deps.js';
import { erpFeedRoutes } from './erp/feed-routes.js';
import { healthRoutes } from './health.js';
import { inboundRoutes } from './inbound/routes.js';
import { validationFailed } from './lib/errors.js';
import { bodyLimit, onError, onNotFound, requestContext, type AppEnv } from './lib/http.js';
import { fieldIssues, issuesMessage } from './lib/zod-issues.js';

export type ServiceApp = OpenAPIHono<AppEnv>;

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
  app.route('/', inboundRoutes(deps));
  app.route('/', erpFeedRoutes(deps));
  app.get('/metrics', async (c) => {
    return c.text(await deps.metrics.metrics(), 200, { 'content-type': deps.metrics.contentType });
  });
  return app;
}
