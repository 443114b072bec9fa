import { createRoute, z } from '@hono/zod-openapi';
import { errorResponse } from '../../lib/openapi-errors.js';
import { retryFailed } from '../../push/retry.js';
import { optionalJsonBody } from '../../reconcile/routes/optional-json.js';
import { PUSH_ENTITIES } from '../../store/index.js';
import { connectionErrors, connectionParams, mustGetConnection, queryErrors } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

export const retryFailedBodySchema = z
  .object({
    entity: z
      .enum(PUSH_ENTITIES)
      .optional()
      .openapi({ description: 'Only failed records of this entity (all entities when left out)' }),
  })
  .strict()
  .openapi('RetryFailedRequest');

const route = createRoute({
  method: 'post',
  operationId: 'adminRetryFailedPushes',
  path: `${ADMIN_PREFIX}/connections/{connection}/pushes/retry-failed`,
  tags: ['Admin'],
  summary: 'Push every failed record of a connection (or of one entity) again',
  description:
    'Each failed record goes back to pending with a new push job, all committed page by page. The body is optional.',
  security: ADMIN_SECURITY,
  middleware: [optionalJsonBody()],
  request: {
    params: connectionParams,
    body: { required: false, content: { 'application/json': { schema: retryFailedBodySchema } } },
  },
  responses: {
    202: {
      description: 'How many records were queued again',
      content: { 'application/json': { schema: z.object({ retried: z.int() }).openapi('RetryFailedResult') } },
    },
    415: errorResponse('A body that is not application/json'),
    ...queryErrors,
    ...connectionErrors,
  },
});

/** POST /admin/v1/connections/{connection}/pushes/retry-failed */
export const registerPushesRetryFailed: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const connection = mustGetConnection(deps, c.req.valid('param').connection).name;
    const entity = (c.req.valid('json') as { entity?: (typeof PUSH_ENTITIES)[number] } | undefined)?.entity;
    const retried = await retryFailed(deps, connection, entity);
    return c.json({ retried: retried.length }, 202);
  });
};
