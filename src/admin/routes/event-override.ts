import { createRoute } from '@hono/zod-openapi';
import { overrideErpRefusal } from '../../inbound/erp-refusal.js';
import { eventSummary } from '../../inbound/event-views.js';
import { conflict, notFound, validationFailed } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { noteAudit } from '../audit-trail.js';
import { ADMIN_ERRORS, idParams, overrideBodySchema, requireJsonBody, retryResultSchema } from './event-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'adminOverrideEventRefusal',
  path: `${ADMIN_PREFIX}/events/{id}/override`,
  tags: ['Admin'],
  summary: "Process a document against the ERP's refusal",
  description:
    'For a `rejected_by_erp` event only: it is processed as if the ERP had accepted it (its feed entry goes to the ' +
    "ERP). The reason is required and kept, with the operator's name, in the audit trail (`GET /admin/v1/audit`), " +
    'in the same transaction as the event is queued. To ask the ERP again instead, use `POST /admin/v1/events/{id}/retry`.',
  security: ADMIN_SECURITY,
  middleware: [requireJsonBody()],
  request: {
    params: idParams,
    body: { required: true, content: { 'application/json': { schema: overrideBodySchema } } },
  },
  responses: {
    202: { description: 'Queued for processing', content: { 'application/json': { schema: retryResultSchema } } },
    400: errorResponse('The id is not an event id, or no reason'),
    404: errorResponse('No such event'),
    409: errorResponse('The event is not refused by the ERP (or its body was pruned)'),
    415: errorResponse('Content-Type is not application/json'),
    ...ADMIN_ERRORS,
  },
});

/** POST /admin/v1/events/{id}/override */
export const registerEventOverride: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const id = Number(c.req.valid('param').id);
    const { reason } = c.req.valid('json');
    const result = await overrideErpRefusal(deps, {
      id,
      reason,
      operator: c.get('operator') ?? 'unknown',
      channel: 'api',
    });
    if (!result.ok) {
      noteAudit(c, { detail: reason });
      if (result.reason === 'not_found') throw notFound(`No event ${id}`);
      if (result.reason === 'no_reason') throw validationFailed('reason: expected why the document is processed');
      if (result.reason === 'pruned') throw conflict(`Event ${id}'s body was pruned by retention: nothing to process`);
      throw conflict(`Event ${id} is not refused by the ERP: there is no refusal to override`);
    }
    noteAudit(c, { recorded: true });
    return c.json({ event: eventSummary(result.event) }, 202);
  });
};
