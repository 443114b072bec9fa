import { createRoute } from '@hono/zod-openapi';
import { notFound } from '../../lib/errors.js';
import { getRun } from '../../reconcile/get-run.js';
import { runQuerySchema } from '../../reconcile/routes/schemas.js';
import { reconciliationRunSchema } from '../../reconcile/view.js';
import { connectionErrors, connectionParams, idParam, mustGetConnection, queryErrors } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const params = connectionParams.extend({ id: idParam().openapi({ param: { name: 'id', in: 'path' }, example: 12 }) });

const route = createRoute({
  method: 'get',
  operationId: 'adminGetReconciliation',
  path: `${ADMIN_PREFIX}/connections/{connection}/reconciliations/{id}`,
  tags: ['Admin'],
  summary: 'A reconciliation run with a page of its findings (the drift table)',
  security: ADMIN_SECURITY,
  request: { params, query: runQuerySchema },
  responses: {
    200: { description: 'The run', content: { 'application/json': { schema: reconciliationRunSchema } } },
    ...queryErrors,
    ...connectionErrors,
  },
});

/** GET /admin/v1/connections/{connection}/reconciliations/{id} */
export const registerReconciliationGet: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const { connection, id } = c.req.valid('param');
    const run = await getRun(deps.store, {
      connection: mustGetConnection(deps, connection).name,
      id,
      ...c.req.valid('query'),
    });
    if (!run) throw notFound(`No reconciliation run ${id} for connection "${connection}"`);
    return c.json(run, 200);
  });
};
