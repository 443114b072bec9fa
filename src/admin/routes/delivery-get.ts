import { createRoute } from '@hono/zod-openapi';
import { deliveryDetail } from '../../erp/delivery/views.js';
import { notFound } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { DELIVERY_ERRORS, deliveryDetailSchema, deliveryIdParams } from './deliveries-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'get',
  operationId: 'adminGetDelivery',
  path: `${ADMIN_PREFIX}/deliveries/{id}`,
  tags: ['Admin'],
  summary: 'One delivery: its state, the body the ERP receives, every attempt',
  security: ADMIN_SECURITY,
  request: { params: deliveryIdParams },
  responses: {
    200: { description: 'The delivery', content: { 'application/json': { schema: deliveryDetailSchema } } },
    400: errorResponse('The id is not a delivery id'),
    404: errorResponse('No such delivery'),
    ...DELIVERY_ERRORS,
  },
});

/** GET /admin/v1/deliveries/{id} */
export const registerDeliveryGet: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const id = Number(c.req.valid('param').id);
    const detail = await deliveryDetail(deps.store, id);
    if (!detail) throw notFound(`No delivery ${id}`);
    return c.json(detail, 200);
  });
};
