import { createRoute, z } from '@hono/zod-openapi';
import { conflict, notFound } from '../../lib/errors.js';
import { errorResponse } from '../../lib/openapi-errors.js';
import { recordViewSchema } from '../../push/record-view.js';
import { retryOne } from '../../push/retry-one.js';
import { connectionErrors, mustGetConnection, queryErrors } from './params.js';
import { recordParams } from './push-record.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'adminRetryPush',
  path: `${ADMIN_PREFIX}/connections/{connection}/pushes/{entity}/{externalCode}/retry`,
  tags: ['Admin'],
  summary: 'Push a failed or waiting record again now',
  description:
    "Back to pending and queued now (a document's failed cancel with it). 409 when it is synced or being pushed.",
  security: ADMIN_SECURITY,
  request: { params: recordParams },
  responses: {
    202: {
      description: 'Queued',
      content: { 'application/json': { schema: z.object({ retried: z.array(recordViewSchema) }) } },
    },
    409: errorResponse('Synced (nothing to retry), or being pushed right now'),
    ...queryErrors,
    ...connectionErrors,
  },
});

/** POST /admin/v1/connections/{connection}/pushes/{entity}/{externalCode}/retry */
export const registerPushRetry: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const { connection, entity, externalCode } = c.req.valid('param');
    const result = await retryOne(deps, mustGetConnection(deps, connection).name, entity, externalCode);
    const label = `${entity} ${externalCode}`;
    if (result.outcome === 'not-found') throw notFound(`No ${label} for connection "${connection}"`);
    if (result.outcome === 'busy')
      throw conflict(`${label} is being pushed right now: retry once it has settled`, result.record);
    if (result.outcome === 'in-sync') throw conflict(`${label} is synced: nothing to retry`, result.record);
    return c.json({ retried: result.retried }, 202);
  });
};
