import { createRoute } from '@hono/zod-openapi';
import { notFound } from '../../lib/errors.js';
import type { OutboundRecord, Store } from '../../store/index.js';
import { INTAKE_KINDS, KINDS, type IntakeKind } from '../entities.js';
import { recordView, recordViewSchema } from '../record-view.js';
import { codeParamsSchema, commonErrors, documentViewSchema, notFoundError } from './schemas.js';
import { SECURITY, type RouteRegistrar } from './types.js';

function route(kind: IntakeKind) {
  const info = KINDS[kind];
  return createRoute({
    method: 'get',
    path: `/erp/v1/${kind}/{externalCode}`,
    tags: ['ERP intake'],
    summary: `A ${info.label} as wms-sync holds it, with its sync state`,
    description: 'pending, synced, or failed with the WMS\'s error body; attempts; last pushed at; what it waits for.',
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

async function view(store: Store, record: OutboundRecord) {
  return recordView(record, await store.outbox.waitsOf(record.id));
}

/** GET /erp/v1/{products|delivery-points|documents}/{externalCode} */
export const registerGet: RouteRegistrar = (app, deps) => {
  for (const kind of INTAKE_KINDS) {
    app.openapi(route(kind), async (c) => {
      const { externalCode } = c.req.valid('param');
      const connection = c.var.connection.name;
      const record = await deps.store.outbox.get(connection, KINDS[kind].entity, externalCode);
      if (!record) throw notFound(`No ${KINDS[kind].label} ${externalCode} for this connection`);
      if (kind !== 'documents') return c.json(await view(deps.store, record), 200);
      const cancel = await deps.store.outbox.get(connection, 'document-cancel', externalCode);
      return c.json({ ...(await view(deps.store, record)), cancel: cancel ? await view(deps.store, cancel) : null }, 200);
    });
  }
};
