import { OpenAPIHono } from '@hono/zod-openapi';
import type { ServiceDeps } from '../../deps.js';
import { validationFailed } from '../../lib/errors.js';
import type { AppEnv } from '../../lib/http.js';
import { fieldIssues, issuesMessage } from '../../lib/zod-issues.js';
import { auditTrail } from '../audit-trail.js';
import { adminAuth } from '../auth.js';
import { registerAuditList } from './audit-list.js';
import { registerConnections } from './connections.js';
import { registerDeliveriesList } from './deliveries-list.js';
import { registerDeliveriesResend } from './deliveries-resend.js';
import { registerDeliveryGet } from './delivery-get.js';
import { registerDeliveryResend } from './delivery-resend.js';
import { registerDocumentCancel } from './document-cancel.js';
import { registerEventGet } from './event-get.js';
import { registerEventOverride } from './event-override.js';
import { registerEventPayload } from './event-payload.js';
import { registerEventRetry } from './event-retry.js';
import { registerEventsList } from './events-list.js';
import { registerEventsRetry } from './events-retry.js';
import { registerFeed } from './feed.js';
import { registerOverview } from './overview.js';
import { registerPushGet } from './push-get.js';
import { registerPushRetry } from './push-retry.js';
import { registerPushesList } from './pushes-list.js';
import { registerPushesRetryFailed } from './pushes-retry-failed.js';
import { registerReconciliationGet } from './reconciliation-get.js';
import { registerReconciliationList } from './reconciliation-list.js';
import { registerReconciliationStart } from './reconciliation-start.js';
import { ADMIN_PREFIX, type AdminRouteRegistrar } from './types.js';

/** Every admin route, one registrar per file; rooms add theirs here. */
const registrars: AdminRouteRegistrar[] = [
  registerConnections,
  // Inbound events. The bulk retry goes before /events/{id}/… so its path is never read as an id.
  registerEventsList,
  registerEventsRetry,
  registerEventGet,
  registerEventPayload,
  registerEventRetry,
  registerEventOverride,
  // Operator console read models and actions; retry-failed before the per-record routes.
  registerOverview,
  registerPushesList,
  registerPushesRetryFailed,
  registerPushGet,
  registerPushRetry,
  registerDocumentCancel,
  registerReconciliationList,
  registerReconciliationStart,
  registerReconciliationGet,
  registerFeed,
  // ERP deliveries; the bulk resend before /deliveries/{id} so its path is never read as an id.
  registerDeliveriesList,
  registerDeliveriesResend,
  registerDeliveryGet,
  registerDeliveryResend,
  registerAuditList,
];

/**
 * The operators' JSON API under /admin/v1, behind an operator's token (Bearer). With no token
 * configured the API does not exist: every path answers the service's plain 404, and nothing is
 * added to the OpenAPI document.
 */
export function adminRoutes(deps: ServiceDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationFailed(issuesMessage(result.error), fieldIssues(result.error));
    },
  });
  const { tokens } = deps.config.admin;
  if (tokens.length === 0) return app;
  app.openAPIRegistry.registerComponent('securitySchemes', 'adminBearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An operator\'s token (ADMIN_TOKENS, or ADMIN_TOKEN as operator "admin") for /admin/v1 and the console sign-in; every change is recorded in the audit trail under that operator\'s name',
  });
  app.use(`${ADMIN_PREFIX}/*`, adminAuth(tokens));
  app.use(
    `${ADMIN_PREFIX}/*`,
    auditTrail({
      store: deps.store,
      clock: deps.clock,
      channel: 'api',
      prefix: ADMIN_PREFIX,
      operator: (c) => c.get('operator'),
      skip: (c) => c.req.query('dryRun') === 'true',
    }),
  );
  for (const register of registrars) register(app, deps);
  return app;
}
