import { createRoute } from '@hono/zod-openapi';
import { connectionOverview, overviewSchema } from '../overview.js';
import { connectionErrors, connectionParams, mustGetConnection } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'get',
  operationId: 'adminGetOverview',
  path: `${ADMIN_PREFIX}/connections/{connection}/overview`,
  tags: ['Admin'],
  summary: 'Whether everything flows for a connection',
  description:
    'Webhooks received in the last 24 h by kind and outcome, WMS pushes by entity and state, the job queue backlog and ' +
    "the age of its oldest ready job, the last reconciliation, this process's WMS token requests, and store and queue health.",
  security: ADMIN_SECURITY,
  request: { params: connectionParams },
  responses: {
    200: { description: 'The overview', content: { 'application/json': { schema: overviewSchema } } },
    ...connectionErrors,
  },
});

/** GET /admin/v1/connections/{connection}/overview */
export const registerOverview: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) =>
    c.json(await connectionOverview(deps, mustGetConnection(deps, c.req.valid('param').connection)), 200),
  );
};
