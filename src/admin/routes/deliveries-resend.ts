import { createRoute } from '@hono/zod-openapi';
import { RESEND_MAX, resendDead } from '../../erp/delivery/views.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { bulkResendBodySchema, bulkResendResultSchema, DELIVERY_ERRORS, deliveryFilter } from './deliveries-schemas.js';
import { requireJsonBody } from './event-schemas.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'adminResendDeliveries',
  path: `${ADMIN_PREFIX}/deliveries/resend`,
  tags: ['Admin'],
  summary: 'Send every dead delivery that matches the filters again',
  description:
    `The body takes the filters of GET /admin/v1/deliveries but status (connection, type, key, createdFrom, createdTo). Only dead deliveries are resent, ` +
    `oldest first, at most ${RESEND_MAX} per call (\`matched\` tells whether more remain). \`dryRun: true\` only counts them (200).`,
  security: ADMIN_SECURITY,
  middleware: [requireJsonBody()],
  request: { body: { required: true, content: { 'application/json': { schema: bulkResendBodySchema } } } },
  responses: {
    200: {
      description: 'Dry run: how many dead deliveries match',
      content: { 'application/json': { schema: bulkResendResultSchema } },
    },
    202: {
      description: 'Pending again: how many matched and how many were resent',
      content: { 'application/json': { schema: bulkResendResultSchema } },
    },
    400: errorResponse('Not JSON, or a filter that is not valid'),
    415: errorResponse('Content-Type is not application/json'),
    ...DELIVERY_ERRORS,
  },
});

/** POST /admin/v1/deliveries/resend */
export const registerDeliveriesResend: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const result = await resendDead(deps.store, deliveryFilter(body), deps.clock.now(), body.dryRun);
    return c.json(result, result.dryRun ? 200 : 202);
  });
};
