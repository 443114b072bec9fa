import { createRoute } from '@hono/zod-openapi';
import { operationId } from '../../lib/operation-id.js';
import { INTAKE_KINDS, type IntakeKind, MAX_BATCH_ITEMS } from '../entities.js';
import { acceptBatch } from '../intake.js';
import { jsonBody } from './json-body.js';
import { batchBodySchema, batchResultSchema, bodyErrors, commonErrors } from './schemas.js';
import { type RouteRegistrar, SECURITY } from './types.js';

const DTO_IDS: Record<IntakeKind, string> = {
  products: 'RestAPIProductDTO',
  'delivery-points': 'RestAPIDeliveryPointDTO',
  documents: 'RestAPIDocumentDTO',
};

function route(kind: IntakeKind) {
  return createRoute({
    method: 'post',
    operationId: operationId('put', kind, 'batch'),
    path: `/erp/v1/${kind}:batch`,
    tags: ['ERP intake'],
    summary: `Create or update up to ${MAX_BATCH_ITEMS} ${kind} at once`,
    description:
      'Each item is validated on its own: valid ones are stored and queued in one transaction, invalid ones are ' +
      'reported with their field errors, and a code given twice is refused the second time. 202 whenever the batch ' +
      'itself is well formed; each item says queued, unchanged or invalid.',
    security: SECURITY,
    middleware: [jsonBody()],
    request: { body: { required: true, content: { 'application/json': { schema: batchBodySchema(DTO_IDS[kind]) } } } },
    responses: {
      202: { description: 'Per-item results', content: { 'application/json': { schema: batchResultSchema } } },
      ...bodyErrors,
      ...commonErrors,
    },
  });
}

/** POST /erp/v1/{products|delivery-points|documents}:batch */
export const registerBatch: RouteRegistrar = (app, deps) => {
  for (const kind of INTAKE_KINDS) {
    app.openapi(route(kind), async (c) => {
      const { items } = c.req.valid('json');
      const results = await acceptBatch(deps, c.var.connection.name, kind, items);
      const count = (r: string) => results.filter((x) => x.result === r).length;
      return c.json(
        { summary: { queued: count('queued'), unchanged: count('unchanged'), invalid: count('invalid') }, results },
        202,
      );
    });
  }
};
