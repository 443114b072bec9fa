import { createRoute, z } from '@hono/zod-openapi';
import { listRecords, recordPageSchema } from '../../push/list.js';
import { PUSH_ENTITIES, PUSH_STATES } from '../../store/index.js';
import { connectionErrors, connectionParams, mustGetConnection, pageQuery, queryErrors } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

export const pushesQuery = pageQuery.extend({
  entity: z
    .enum(PUSH_ENTITIES)
    .openapi({ description: 'Which records: products, delivery points, documents or document cancels' }),
  state: z.enum(PUSH_STATES).optional().openapi({ description: 'Only records in this sync state' }),
});

const route = createRoute({
  method: 'get',
  operationId: 'adminListPushes',
  path: `${ADMIN_PREFIX}/connections/{connection}/pushes`,
  tags: ['Admin'],
  summary: "A page of a connection's WMS pushes, newest first",
  description:
    "Sync state, attempts and the WMS's error of each record (no payload: GET the record through the ERP API for it).",
  security: ADMIN_SECURITY,
  request: { params: connectionParams, query: pushesQuery },
  responses: {
    200: { description: 'A page of records', content: { 'application/json': { schema: recordPageSchema } } },
    ...queryErrors,
    ...connectionErrors,
  },
});

/** GET /admin/v1/connections/{connection}/pushes */
export const registerPushesList: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const connection = mustGetConnection(deps, c.req.valid('param').connection).name;
    return c.json(await listRecords(deps.store, { connection, ...c.req.valid('query') }), 200);
  });
};
