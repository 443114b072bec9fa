import { createRoute } from '@hono/zod-openapi';
import { listDeliveries } from '../../erp/delivery/views.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { DELIVERY_ERRORS, deliveriesQuerySchema, deliveryFilter, deliveryPageSchema } from './deliveries-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'get',
  operationId: 'adminListDeliveries',
  path: `${ADMIN_PREFIX}/deliveries`,
  tags: ['Admin'],
  summary: 'Deliveries of the feed to the ERP webhook, newest first',
  description:
    'Filters combine with AND; `status=dead` lists what waits for a resend. `total` counts every match. Pass `nextBefore` as `before` for the next page.',
  security: ADMIN_SECURITY,
  request: { query: deliveriesQuerySchema },
  responses: {
    200: { description: 'One page', content: { 'application/json': { schema: deliveryPageSchema } } },
    400: errorResponse('A filter, cursor or limit that is not valid: `message` names it'),
    ...DELIVERY_ERRORS,
  },
});

/** GET /admin/v1/deliveries */
export const registerDeliveriesList: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    return c.json(
      await listDeliveries(deps.store, deliveryFilter(q), {
        limit: q.limit,
        before: q.before ? Number(q.before) : undefined,
      }),
      200,
    );
  });
};
