import { createRoute } from '@hono/zod-openapi';
import { eventSummary } from '../../inbound/event-views.js';
import { retryEvent } from '../../inbound/retry-event.js';
import { conflict, notFound } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { noteAudit } from '../audit-trail.js';
import { ADMIN_ERRORS, idParams, retryResultSchema } from './event-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'adminRetryEvent',
  path: `${ADMIN_PREFIX}/events/{id}/retry`,
  tags: ['Admin'],
  summary: 'Run the processing of one event again',
  description:
    'Back to `received` with a new processing job (202). Applies to failed, quarantined (read again: its latest ' +
    'correction, else the original), processed (idempotent: no second feed entry) and received events; not to ' +
    'rejected ones. A `rejected_by_erp` event is not processed against the refusal: the ERP is asked again (the ' +
    "close acknowledgement's question, within ERP_CLOSE_ACK_TIMEOUT_MS); if it accepts, the event is queued (202), " +
    'if it refuses again or does not decide, the event stays refused (200, `erp` says what it answered). Processing ' +
    "it against the ERP's refusal is `POST /admin/v1/events/{id}/override`, with a reason.",
  security: ADMIN_SECURITY,
  request: { params: idParams },
  responses: {
    200: {
      description: 'The ERP was asked again and refused, or did not decide: the event stays refused',
      content: { 'application/json': { schema: retryResultSchema } },
    },
    202: { description: 'Queued for processing', content: { 'application/json': { schema: retryResultSchema } } },
    400: errorResponse('The id is not an event id'),
    404: errorResponse('No such event'),
    409: errorResponse(
      'A rejected event (nothing to process: the WMS must send a corrected one), a pruned body, or an ERP refusal its connection can no longer ask about',
    ),
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
      if (result.reason === 'pruned') throw conflict(`Event ${id}'s body was pruned by retention: nothing to process`);
      if (result.reason === 'no_erp')
        throw conflict(
          `The ERP refused event ${id} and its connection has no ERP webhook to ask again: override the refusal with a reason`,
        );
      throw conflict(`Event ${id} was rejected on arrival: nothing to process; the WMS must send a corrected one`);
    }
    noteAudit(c, { connection: result.event.connection });
    const event = eventSummary(result.event);
    if (!result.erp) return c.json({ event }, 202);
    if (result.erp.decision === 'accepted') {
      noteAudit(c, { detail: 'asked the ERP again: it accepts; queued for processing' });
      return c.json({ event, erp: result.erp }, 202);
    }
    noteAudit(c, {
      outcome: 'refused',
      detail:
        result.erp.decision === 'rejected'
          ? `asked the ERP again: it refuses: ${result.erp.message}`
          : `asked the ERP again: no decision (${result.erp.detail}); still refused`,
    });
    return c.json({ event, erp: result.erp }, 200);
  });
};
