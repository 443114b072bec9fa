import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit, requestContext } from '../lib/http.js';
import type { Logger } from '../lib/logger.js';
import { WMS_BASE_PATH, WMS_PATHS } from '../wms/index.js';
import { capacityLimit } from './capacity/middleware.js';
import { faultInjection } from './faults/middleware.js';
import { bearerAuth } from './http/auth.js';
import { controlAuth } from './http/control-auth.js';
import type { EmulatorApp, EmulatorEnv, EmulatorServices } from './http/env.js';
import { onEmulatorError, onEmulatorNotFound, validationHook } from './http/errors.js';
import { CONTROL_PREFIX } from './http/zones.js';
import { controlCapacityRoutes } from './routes/control-capacity.js';
import { controlClientRoutes } from './routes/control-clients.js';
import { controlFaultRoutes, type StateFiles } from './routes/control-faults.js';
import { controlReceptionRoutes } from './routes/control-receptions.js';
import { controlShippingRoutes } from './routes/control-shipping.js';
import { controlStockRoutes } from './routes/control-stock.js';
import { controlTenantRoutes } from './routes/control-tenants.js';
import { controlWebhookStyleRoutes } from './routes/control-webhook-style.js';
import { controlWebhookRoutes } from './routes/control-webhooks.js';
import { deliveryPointRoutes } from './routes/delivery-points.js';
import { documentRoutes } from './routes/documents.js';
import { DOCS_PATH, DOCS_SCRIPT_PATH, OPENAPI_PATH, openApiRoutes } from './routes/openapi.js';
import { productRoutes } from './routes/products.js';
import { tokenRoutes } from './routes/tokens.js';
import { warehouseApiRoutes } from './routes/warehouse-api.js';

/** Largest request body; the spec is silent, Spring Boot's multipart default is the model. */
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

export interface EmulatorAppOptions {
  logger: Logger;
  bodyLimitBytes?: number;
  /** The whole-state reset of the control API (seed applied again). */
  resetAll: () => void;
  /** The whole state to a file and back. */
  files: StateFiles;
}

/** The emulator's Hono app: token endpoints, the WMS API, the control API and the OpenAPI docs. */
export function createEmulatorApp(services: EmulatorServices, options: EmulatorAppOptions): EmulatorApp {
  const app = new OpenAPIHono<EmulatorEnv>({ defaultHook: validationHook });
  app.use('*', requestContext(options.logger));
  app.use('*', faultInjection(services.faults));
  app.use(
    '*',
    bodyLimit(options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES, () => new HTTPException(413)),
  );
  const control = controlAuth(services.adminToken);
  app.use(`${CONTROL_PREFIX}/*`, (c, next) =>
    c.req.path === OPENAPI_PATH || c.req.path === DOCS_PATH || c.req.path === DOCS_SCRIPT_PATH
      ? next()
      : control(c, next),
  );
  const bearer = bearerAuth(services);
  // Endpoint 21 needs no token; endpoint 20 takes OAuth2 tokens only, checked by its own route.
  const open = new Set<string>([WMS_PATHS.authToken, WMS_PATHS.storageSystemDispatched]);
  app.use(`${WMS_BASE_PATH}/*`, (c, next) => (open.has(c.req.path) ? next() : bearer(c, next)));
  app.use(`${WMS_BASE_PATH}/*`, capacityLimit(services.capacity));

  tokenRoutes(app, services);
  productRoutes(app, services);
  documentRoutes(app, services);
  deliveryPointRoutes(app, services);
  warehouseApiRoutes(app, services);
  controlTenantRoutes(app, services, options.resetAll);
  controlClientRoutes(app, services);
  controlStockRoutes(app, services);
  controlReceptionRoutes(app, services);
  controlShippingRoutes(app, services);
  controlWebhookRoutes(app, services);
  controlWebhookStyleRoutes(app, services);
  controlFaultRoutes(app, services, options.files);
  controlCapacityRoutes(app, services);
  openApiRoutes(app);

  app.onError(onEmulatorError);
  app.notFound(onEmulatorNotFound);
  return app;
}
