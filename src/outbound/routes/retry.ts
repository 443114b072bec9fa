import { createRoute, z } from '@hono/zod-openapi';
import { conflict, notFound } from '../../lib/errors.js';
import { INTAKE_KINDS, KINDS, type IntakeKind } from '../entities.js';
import { recordView, recordViewSchema } from '../record-view.js';
import { retryRecord } from '../retry.js';
import { codeParamsSchema, commonErrors, errorBodySchema, notFoundError } from './schemas.js';
import { SECURITY, type RouteRegistrar } from './types.js';

const retryResultSchema = z
  .object({ retried: z.array(recordViewSchema).openapi({ description: 'The records put back in line (a document and its cancel)' }) })
  .openapi('RetryResult');

function route(kind: IntakeKind) {
  const info = KINDS[kind];
  return createRoute({
    method: 'post',
    path: `/erp/v1/${kind}/{externalCode}/retry`,
    tags: ['ERP intake'],
    summary: `Push a failed or waiting ${info.label} again now`,
    description:
      'After the cause was fixed (in the WMS, or a referenced record): the record goes back to pending and is pushed ' +
      `now.${kind === 'documents' ? " A failed cancel of the document is retried too." : ''} 409 when it is synced.`,
    security: SECURITY,
    request: { params: codeParamsSchema },
    responses: {
      202: { description: 'Queued', content: { 'application/json': { schema: retryResultSchema } } },
      409: { description: 'Synced (nothing to retry), or being pushed right now', content: { 'application/json': { schema: errorBodySchema } } },
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
      const connection = c.var.connection.name;
      const entities = kind === 'documents' ? (['document', 'document-cancel'] as const) : ([KINDS[kind].entity] as const);
      const outcomes = [];
      for (const entity of entities) outcomes.push(await retryRecord(deps, connection, entity, externalCode));
      const main = outcomes[0]!;
      if (main.outcome === 'not-found') throw notFound(`No ${KINDS[kind].label} ${externalCode} for this connection`);
      const retried = outcomes.flatMap((o) => (o.outcome === 'queued' ? [recordView(o.record)] : []));
      if (outcomes.some((o) => o.outcome === 'busy')) {
        throw conflict(`${KINDS[kind].label} ${externalCode} is being pushed right now: retry once it has settled`, recordView(main.record));
      }
      if (retried.length === 0) throw conflict(`${KINDS[kind].label} ${externalCode} is synced: nothing to retry`, recordView(main.record));
      return c.json({ retried }, 202);
    });
  }
};
