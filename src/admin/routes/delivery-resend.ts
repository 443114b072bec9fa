import { createRoute, z } from '@hono/zod-openapi';
import { resendOne } from '../../erp/delivery/views.js';
import { conflict, notFound } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { DELIVERY_ERRORS, deliveryIdParams, deliverySummarySchema } from './deliveries-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'adminResendDelivery',
  path: `${ADMIN_PREFIX}/deliveries/{id}/resend`,
  tags: ['Admin'],
  summary: 'Send one delivery again',
  description:
    'A dead or delivered delivery goes back to pending on a fresh retry schedule, due now, with the same webhook-id. 409 while it is pending.',
  security: ADMIN_SECURITY,
  request: { params: deliveryIdParams },
  responses: {
    202: {
      description: 'Pending again',
      content: { 'application/json': { schema: z.object({ delivery: deliverySummarySchema }) } },
    },
    400: errorResponse('The id is not a delivery id'),
    404: errorResponse('No such delivery'),
    409: errorResponse('The delivery is pending: it is on its way already'),
    ...DELIVERY_ERRORS,
  },
});

/** POST /admin/v1/deliveries/{id}/resend */
export const registerDeliveryResend: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const id = Number(c.req.valid('param').id);
    const result = await resendOne(deps.store, id, deps.clock.now());
    if (!result.ok && result.reason === 'not_found') throw notFound(`No delivery ${id}`);
    if (!result.ok) throw conflict(`Delivery ${id} is pending: it is on its way already`);
    return c.json({ delivery: result.delivery }, 202);
  });
};
