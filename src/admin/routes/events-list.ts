import { createRoute } from '@hono/zod-openapi';
import { listEvents } from '../../inbound/event-views.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { ADMIN_ERRORS, eventPageSchema, listQuerySchema, storeFilter } from './event-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'get',
  operationId: 'adminListEvents',
  path: `${ADMIN_PREFIX}/events`,
  tags: ['Admin'],
  summary: 'Inbound webhook events, newest first',
  description:
    "Filters combine with AND. Pages newest first: pass the previous page's `nextCursor` as `cursor`. " +
    '`total` counts every event that matches the filters. Every filter is an index lookup.',
  security: ADMIN_SECURITY,
  request: { query: listQuerySchema },
  responses: {
    200: { description: 'One page', content: { 'application/json': { schema: eventPageSchema } } },
    400: errorResponse('A filter, cursor or limit that is not valid: `message` names it'),
    ...ADMIN_ERRORS,
  },
});

/** GET /admin/v1/events */
export const registerEventsList: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    return c.json(
      await listEvents(deps.store, storeFilter(q), {
        limit: q.limit,
        beforeId: q.cursor ? Number(q.cursor) : undefined,
      }),
      200,
    );
  });
};
