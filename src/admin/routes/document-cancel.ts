import { createRoute, z } from '@hono/zod-openapi';
import { notFound } from '../../lib/errors.js';
import { NUL_MESSAGE } from '../../lib/nul.js';
import { acceptCancel } from '../../push/cancel.js';
import { recordView, recordViewSchema } from '../../push/record-view.js';
import { connectionErrors, connectionParams, mustGetConnection, queryErrors } from './params.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

const params = connectionParams.extend({
  externalCode: z
    .string()
    .min(1)
    .refine((code) => !code.includes('\u0000'), NUL_MESSAGE)
    .openapi({ param: { name: 'externalCode', in: 'path' }, example: 'PO-2026-0001' }),
});

const route = createRoute({
  method: 'post',
  operationId: 'adminCancelDocument',
  path: `${ADMIN_PREFIX}/connections/{connection}/pushes/document/{externalCode}/cancel`,
  tags: ['Admin'],
  summary: 'Cancel a document in the WMS',
  description:
    'Queues the cancel (WMS endpoint 12) of a document wms-sync holds, as the ERP API does. The WMS refuses a cancel of a ' +
    'document already in progress (409): the cancel record then shows failed with its message.',
  security: ADMIN_SECURITY,
  request: { params },
  responses: {
    202: {
      description: 'The cancel record',
      content: { 'application/json': { schema: z.object({ cancel: recordViewSchema, changed: z.boolean() }) } },
    },
    ...queryErrors,
    ...connectionErrors,
  },
});

/** POST /admin/v1/connections/{connection}/pushes/document/{externalCode}/cancel */
export const registerDocumentCancel: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const { connection, externalCode } = c.req.valid('param');
    const name = mustGetConnection(deps, connection).name;
    if (!(await deps.store.pushes.get(name, 'document', externalCode)))
      throw notFound(`No document ${externalCode} for connection "${connection}"`);
    const { record, changed } = await acceptCancel(deps, name, externalCode);
    return c.json({ cancel: recordView(record), changed }, 202);
  });
};
