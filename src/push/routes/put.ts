import { createRoute } from '@hono/zod-openapi';
import { badRequest } from '../../lib/errors.js';
import { operationId } from '../../lib/operation-id.js';
import { INTAKE_KINDS, type IntakeKind, KINDS } from '../entities.js';
import { acceptOne } from '../intake.js';
import { recordView, recordViewSchema } from '../record-view.js';
import { jsonBody } from './json-body.js';
import { bodyErrors, codeParamsSchema, commonErrors } from './schemas.js';
import { type RouteRegistrar, SECURITY } from './types.js';

function route(kind: IntakeKind) {
  const info = KINDS[kind];
  return createRoute({
    method: 'put',
    operationId: operationId('put', info.label),
    path: `/erp/v1/${kind}/{externalCode}`,
    tags: ['ERP intake'],
    summary: `Create or update a ${info.label} in the WMS`,
    description:
      `Stores the ${info.label} (the spec's DTO) and queues its push. 202 when queued; 200 when the payload equals ` +
      'the one already synced or on its way (nothing is pushed again).',
    security: SECURITY,
    middleware: [jsonBody()],
    request: {
      params: codeParamsSchema,
      body: { required: true, content: { 'application/json': { schema: info.schema } } },
    },
    responses: {
      200: {
        description: 'Unchanged: nothing new to push',
        content: { 'application/json': { schema: recordViewSchema } },
      },
      202: { description: 'Stored and queued for push', content: { 'application/json': { schema: recordViewSchema } } },
      ...bodyErrors,
      ...commonErrors,
    },
  });
}

/** PUT /erp/v1/{products|delivery-points|documents}/{externalCode} */
export const registerPut: RouteRegistrar = (app, deps) => {
  for (const kind of INTAKE_KINDS) {
    app.openapi(route(kind), async (c) => {
      const { externalCode } = c.req.valid('param');
      const body = c.req.valid('json') as Record<string, unknown>;
      if (body.externalCode !== externalCode) {
        throw badRequest(
          `externalCode in the body ("${String(body.externalCode)}") differs from the one in the path ("${externalCode}")`,
        );
      }
      const { record, changed } = await acceptOne(deps, c.var.connection.name, KINDS[kind].entity, body);
      const waits = await deps.store.pushes.waitsOf(record.id);
      return c.json(recordView(record, waits), changed ? 202 : 200);
    });
  }
};
