import { createRoute, z } from '@hono/zod-openapi';
import { listRecords, recordPageSchema } from '../../push/list.js';
import { OUTBOUND_ENTITIES, OUTBOUND_STATES } from '../../store/index.js';
import { connectionErrors, connectionParams, mustGetConnection, pageQuery, queryErrors } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

export const outboundQuery = pageQuery.extend({
  entity: z
    .enum(OUTBOUND_ENTITIES)
    .openapi({ description: 'Which records: products, delivery points, documents or document cancels' }),
  state: z.enum(OUTBOUND_STATES).optional().openapi({ description: 'Only records in this sync state' }),
});

const route = createRoute({
  method: 'get',
  path: `${ADMIN_PREFIX}/connections/{connection}/outbound`,
  tags: ['Admin'],
  summary: "A page of a connection's outbound records, newest first",
  description:
    "Sync state, attempts and the WMS's error of each record (no payload: GET the record through the ERP API for it).",
  security: ADMIN_SECURITY,
  request: { params: connectionParams, query: outboundQuery },
  responses: {
    200: { description: 'A page of records', content: { 'application/json': { schema: recordPageSchema } } },
    ...queryErrors,
    ...connectionErrors,
  },
});

/** GET /admin/v1/connections/{connection}/outbound */
export const registerOutboundList: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const connection = mustGetConnection(deps, c.req.valid('param').connection).name;
    return c.json(await listRecords(deps.store, { connection, ...c.req.valid('query') }), 200);
  });
};
