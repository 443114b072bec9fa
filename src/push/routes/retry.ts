import { createRoute, z } from '@hono/zod-openapi';
import { conflict, notFound } from '../../lib/errors.js';
import { errorBodySchema } from '../../lib/openapi-errors.js';
import { operationId } from '../../lib/operation-id.js';
import { INTAKE_KINDS, type IntakeKind, KINDS } from '../entities.js';
import { recordViewSchema } from '../record-view.js';
import { retryOne } from '../retry-one.js';
import { codeParamsSchema, commonErrors, notFoundError } from './schemas.js';
import { type RouteRegistrar, SECURITY } from './types.js';

const retryResultSchema = z
  .object({
    retried: z
      .array(recordViewSchema)
      .openapi({ description: 'The records put back in line (a document and its cancel)' }),
  })
  .openapi('RetryResult');

function route(kind: IntakeKind) {
  const info = KINDS[kind];
  return createRoute({
    method: 'post',
    operationId: operationId('retry', info.label, 'push'),
    path: `/erp/v1/${kind}/{externalCode}/retry`,
    tags: ['ERP intake'],
    summary: `Push a failed or waiting ${info.label} again now`,
    description:
      'After the cause was fixed (in the WMS, or a referenced record): the record goes back to pending and is pushed ' +
      `now.${kind === 'documents' ? ' A failed cancel of the document is retried too.' : ''} 409 when it is synced.`,
    security: SECURITY,
    request: { params: codeParamsSchema },
    responses: {
      202: { description: 'Queued', content: { 'application/json': { schema: retryResultSchema } } },
      409: {
        description: 'Synced (nothing to retry), or being pushed right now',
        content: { 'application/json': { schema: errorBodySchema } },
      },
      ...notFoundError,
      ...commonErrors,
    },
  });
}

/** POST /erp/v1/{products|delivery-points|documents}/{externalCode}/retry */
export const registerRetry: RouteRegistrar = (app, deps) => {
  for (const kind of INTAKE_KINDS) {
    app.openapi(route(kind), async (c) => {
      const { externalCode } = c.req.valid('param');
      const label = `${KINDS[kind].label} ${externalCode}`;
      const result = await retryOne(deps, c.var.connection.name, KINDS[kind].entity, externalCode);
      if (result.outcome === 'not-found') throw notFound(`No ${label} for this connection`);
      if (result.outcome === 'busy')
        throw conflict(`${label} is being pushed right now: retry once it has settled`, result.record);
      if (result.outcome === 'in-sync') throw conflict(`${label} is synced: nothing to retry`, result.record);
      return c.json({ retried: result.retried }, 202);
    });
  }
};
