import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { ErpEnv } from '../../lib/erp-auth.js';
import { type RequestDeps, requestRun } from '../request.js';
import { optionalJsonBody } from './optional-json.js';
import { errors, SECURITY, startedSchema, startRunBodySchema } from './schemas.js';

const route = createRoute({
  method: 'post',
  operationId: 'startReconciliation',
  path: '/erp/v1/reconciliations',
  tags: ['Reconciliation'],
  summary: 'Start a stock reconciliation of this connection',
  description:
    'Queues a run that compares the WMS stock (endpoint 7) with what wms-sync learnt from webhooks, and sends each ' +
    'confirmed drift to the ERP feed as `stock.drift`. Runs of one connection never overlap: when a run is already ' +
    'waiting to start, that run is answered (200) instead of queueing another. The body is optional.',
  security: SECURITY,
  middleware: [optionalJsonBody()],
  request: { body: { required: false, content: { 'application/json': { schema: startRunBodySchema } } } },
  responses: {
    202: {
      description: 'Queued: follow it with GET /erp/v1/reconciliations/{id}',
      content: { 'application/json': { schema: startedSchema } },
    },
    200: {
      description: 'A run of this connection was already waiting to start: that one',
      content: { 'application/json': { schema: startedSchema } },
    },
    ...errors.body,
    ...errors.unauthorized,
  },
});

/** POST /erp/v1/reconciliations */
export function registerStart(app: OpenAPIHono<ErpEnv>, deps: RequestDeps): void {
  app.openapi(route, async (c) => {
    const { run, created } = await requestRun(deps, c.var.connection.name, 'api');
    return c.json({ id: run.id, status: run.status }, created ? 202 : 200);
  });
}
