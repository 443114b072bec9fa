import { createRoute } from '@hono/zod-openapi';
import { listRuns, runPageSchema } from '../../reconcile/list-runs.js';
import { connectionErrors, connectionParams, mustGetConnection, pageQuery, queryErrors } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'get',
  operationId: 'adminListReconciliations',
  path: `${ADMIN_PREFIX}/connections/{connection}/reconciliations`,
  tags: ['Admin'],
  summary: "A page of a connection's reconciliation runs, newest first",
  description:
    'Status and counters of each run (drift, not found, unsettled, rows checked); the items are on the run itself.',
  security: ADMIN_SECURITY,
  request: { params: connectionParams, query: pageQuery },
  responses: {
    200: { description: 'A page of runs', content: { 'application/json': { schema: runPageSchema } } },
    ...queryErrors,
    ...connectionErrors,
  },
});

/** GET /admin/v1/connections/{connection}/reconciliations */
export const registerReconciliationList: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const connection = mustGetConnection(deps, c.req.valid('param').connection).name;
    return c.json(await listRuns(deps.store, { connection, ...c.req.valid('query') }), 200);
  });
};
