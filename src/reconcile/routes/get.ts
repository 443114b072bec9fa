import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { ErpEnv } from '../../lib/erp-auth.js';
import { notFound } from '../../lib/errors.js';
import type { Store } from '../../store/index.js';
import { getRun } from '../get-run.js';
import { reconciliationRunSchema } from '../view.js';
import { errors, runIdParamsSchema, runQuerySchema, SECURITY } from './schemas.js';

const route = createRoute({
  method: 'get',
  operationId: 'getReconciliation',
  path: '/erp/v1/reconciliations/{id}',
  tags: ['Reconciliation'],
  summary: 'A reconciliation run with its findings',
  description:
    'status running, completed, partial (some batches kept failing: see reason) or failed (also queued before it ' +
    'starts); counters; and a page of items, one per product/lot with drift, not found or unsettled. Rows that ' +
    'matched leave no item.',
  security: SECURITY,
  request: { params: runIdParamsSchema, query: runQuerySchema },
  responses: {
    200: { description: 'The run', content: { 'application/json': { schema: reconciliationRunSchema } } },
    ...errors.query,
    ...errors.unauthorized,
    ...errors.notFound,
  },
});

/** GET /erp/v1/reconciliations/{id} */
export function registerGet(app: OpenAPIHono<ErpEnv>, deps: { store: Store }): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const { itemsAfter, itemsLimit } = c.req.valid('query');
    const run = await getRun(deps.store, { connection: c.var.connection.name, id, itemsAfter, itemsLimit });
    if (!run) throw notFound(`No reconciliation run ${id} for this connection`);
    return c.json(run, 200);
  });
}
