import { createRoute } from '@hono/zod-openapi';
import { auditPage, auditPageSchema, auditQuerySchema } from '../audit-views.js';
import { ADMIN_ERRORS } from './event-schemas.js';
import { queryErrors } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'get',
  operationId: 'adminListAudit',
  path: `${ADMIN_PREFIX}/audit`,
  tags: ['Admin'],
  summary: 'The audit trail: every operator action, newest first',
  description:
    'Each change made through the admin API or the console (edit, retry, override, bulk retry, resend, cancel, ' +
    'reconciliation start, emulator actions), with the operator, the channel, the target and how it ended; dry runs ' +
    "are not actions. Filters combine with AND. Pages newest first: pass the previous page's `nextBefore` as " +
    '`before`. Kept for AUDIT_RETENTION_DAYS.',
  security: ADMIN_SECURITY,
  request: { query: auditQuerySchema },
  responses: {
    200: { description: 'One page', content: { 'application/json': { schema: auditPageSchema } } },
    ...queryErrors,
    ...ADMIN_ERRORS,
  },
});

/** GET /admin/v1/audit */
export const registerAuditList: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => c.json(await auditPage(deps.store, c.req.valid('query')), 200));
};
