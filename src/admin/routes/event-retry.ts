import { createRoute } from '@hono/zod-openapi';
import { eventSummary } from '../../inbound/event-views.js';
import { retryEvent } from '../../inbound/retry-event.js';
import { conflict, notFound } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { ADMIN_ERRORS, idParams, retryResultSchema } from './event-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'adminRetryEvent',
  path: `${ADMIN_PREFIX}/events/{id}/retry`,
  tags: ['Admin'],
  summary: 'Run the processing of one event again',
  description:
    'Back to `received` with a new processing job. Applies to failed, quarantined (read again: its latest correction, ' +
    'else the original), processed (idempotent: no second feed entry), received and rejected_by_erp events (processed as ' +
    'if the ERP had accepted: the operator overrides its refusal); not to rejected ones.',
  security: ADMIN_SECURITY,
  request: { params: idParams },
  responses: {
    202: { description: 'Queued for processing', content: { 'application/json': { schema: retryResultSchema } } },
    400: errorResponse('The id is not an event id'),
    404: errorResponse('No such event'),
    409: errorResponse('A rejected event: nothing to process; the WMS must send a corrected one'),
    ...ADMIN_ERRORS,
  },
});

/** POST /admin/v1/events/{id}/retry */
export const registerEventRetry: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const id = Number(c.req.valid('param').id);
    const result = await retryEvent(deps, id);
    if (!result.ok) {
      if (result.reason === 'not_found') throw notFound(`No event ${id}`);
      throw conflict(`Event ${id} was rejected on arrival: nothing to process; the WMS must send a corrected one`);
    }
    return c.json({ event: eventSummary(result.event) }, 202);
  });
};
