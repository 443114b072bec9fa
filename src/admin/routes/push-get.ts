import { createRoute } from '@hono/zod-openapi';
import { notFound } from '../../lib/errors.js';
import { getRecord } from '../../push/get-record.js';
import { recordViewSchema } from '../../push/record-view.js';
import { connectionErrors, mustGetConnection, queryErrors } from './params.js';
import { recordParams } from './push-record.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'get',
  operationId: 'adminGetPush',
  path: `${ADMIN_PREFIX}/connections/{connection}/pushes/{entity}/{externalCode}`,
  tags: ['Admin'],
  summary: 'One WMS push with its payload, sync state and what it waits for',
  security: ADMIN_SECURITY,
  request: { params: recordParams },
  responses: {
    200: { description: 'The record', content: { 'application/json': { schema: recordViewSchema } } },
    ...queryErrors,
    ...connectionErrors,
  },
});

/** GET /admin/v1/connections/{connection}/pushes/{entity}/{externalCode} */
export const registerPushGet: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const { connection, entity, externalCode } = c.req.valid('param');
    const record = await getRecord(deps.store, mustGetConnection(deps, connection).name, entity, externalCode);
    if (!record) throw notFound(`No ${entity} ${externalCode} for connection "${connection}"`);
    return c.json(record, 200);
  });
};
