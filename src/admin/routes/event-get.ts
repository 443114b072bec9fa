import { createRoute } from '@hono/zod-openapi';
import { eventDetail } from '../../inbound/event-views.js';
import { notFound } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { ADMIN_ERRORS, eventDetailSchema, idParams } from './event-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'get',
  operationId: 'adminGetEvent',
  path: `${ADMIN_PREFIX}/events/{id}`,
  tags: ['Admin'],
  summary: 'One inbound event: raw body, correction, edit history, attempts, feed entries',
  security: ADMIN_SECURITY,
  request: { params: idParams },
  responses: {
    200: { description: 'The event', content: { 'application/json': { schema: eventDetailSchema } } },
    400: errorResponse('The id is not an event id'),
    404: errorResponse('No such event'),
    ...ADMIN_ERRORS,
  },
});

/** GET /admin/v1/events/{id} */
export const registerEventGet: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const id = Number(c.req.valid('param').id);
    const detail = await eventDetail(deps.store, id);
    if (!detail) throw notFound(`No event ${id}`);
    return c.json(detail, 200);
  });
};
