import { createRoute } from '@hono/zod-openapi';
import { requestRun } from '../../reconcile/request.js';
import { startedSchema } from '../../reconcile/routes/schemas.js';
import { connectionErrors, connectionParams, mustGetConnection } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'adminStartReconciliation',
  path: `${ADMIN_PREFIX}/connections/{connection}/reconciliations`,
  tags: ['Admin'],
  summary: 'Start a stock reconciliation of a connection',
  description:
    'As POST /erp/v1/reconciliations: a queued run (202), or the run already waiting to start (200). No body.',
  security: ADMIN_SECURITY,
  request: { params: connectionParams },
  responses: {
    202: { description: 'Queued', content: { 'application/json': { schema: startedSchema } } },
    200: {
      description: 'A run of this connection was already waiting to start: that one',
      content: { 'application/json': { schema: startedSchema } },
    },
    ...connectionErrors,
  },
});

/** POST /admin/v1/connections/{connection}/reconciliations */
export const registerReconciliationStart: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const connection = mustGetConnection(deps, c.req.valid('param').connection).name;
    const { run, created } = await requestRun(deps, connection, 'api');
    return c.json({ id: run.id, status: run.status }, created ? 202 : 200);
  });
};
