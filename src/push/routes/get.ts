import { createRoute } from '@hono/zod-openapi';
import { notFound } from '../../lib/errors.js';
import { operationId } from '../../lib/operation-id.js';
import { INTAKE_KINDS, type IntakeKind, KINDS } from '../entities.js';
import { getRecord } from '../get-record.js';
import { recordViewSchema } from '../record-view.js';
import { codeParamsSchema, commonErrors, documentViewSchema, notFoundError } from './schemas.js';
import { type RouteRegistrar, SECURITY } from './types.js';

function route(kind: IntakeKind) {
  const info = KINDS[kind];
  return createRoute({
    method: 'get',
    operationId: operationId('get', info.label),
    path: `/erp/v1/${kind}/{externalCode}`,
    tags: ['ERP intake'],
    summary: `A ${info.label} as wms-sync holds it, with its sync state`,
    description: "pending, synced, or failed with the WMS's error body; attempts; last pushed at; what it waits for.",
    security: SECURITY,
    request: { params: codeParamsSchema },
    responses: {
      200: {
        description: 'The record and its sync state',
        content: { 'application/json': { schema: kind === 'documents' ? documentViewSchema : recordViewSchema } },
      },
      ...notFoundError,
      ...commonErrors,
    },
  });
}

/** GET /erp/v1/{products|delivery-points|documents}/{externalCode} */
export const registerGet: RouteRegistrar = (app, deps) => {
  for (const kind of INTAKE_KINDS) {
    app.openapi(route(kind), async (c) => {
      const { externalCode } = c.req.valid('param');
      const connection = c.var.connection.name;
      const record = await getRecord(deps.store, connection, KINDS[kind].entity, externalCode);
      if (!record) throw notFound(`No ${KINDS[kind].label} ${externalCode} for this connection`);
      if (kind !== 'documents') return c.json(record, 200);
      return c.json(
        { ...record, cancel: (await getRecord(deps.store, connection, 'document-cancel', externalCode)) ?? null },
        200,
      );
    });
  }
};
