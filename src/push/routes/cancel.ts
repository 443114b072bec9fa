import { createRoute } from '@hono/zod-openapi';
import { acceptCancel } from '../cancel.js';
import { recordView, recordViewSchema } from '../record-view.js';
import { jsonBody } from './json-body.js';
import { bodyErrors, cancelBodySchema, codeParamsSchema, commonErrors } from './schemas.js';
import { type RouteRegistrar, SECURITY } from './types.js';

const route = createRoute({
  method: 'post',
  operationId: 'cancelDocument',
  path: '/erp/v1/documents/{externalCode}/cancel',
  tags: ['ERP intake'],
  summary: 'Cancel a document in the WMS',
  description:
    'Queues endpoint 12. The body may be omitted when wms-sync holds the document (its documentType is used); the ' +
    'cancel waits until the document is in the WMS. The WMS allows cancelling only DRAFT or CREATED documents.',
  security: SECURITY,
  middleware: [jsonBody({ optional: true })],
  request: {
    params: codeParamsSchema,
    body: { required: false, content: { 'application/json': { schema: cancelBodySchema } } },
  },
  responses: {
    200: {
      description: 'Already requested: nothing new',
      content: { 'application/json': { schema: recordViewSchema } },
    },
    202: { description: 'Queued', content: { 'application/json': { schema: recordViewSchema } } },
    ...bodyErrors,
    ...commonErrors,
  },
});

/** POST /erp/v1/documents/{externalCode}/cancel */
export const registerCancel: RouteRegistrar = (app, deps) => {
  app.openapi(route, async (c) => {
    const { externalCode } = c.req.valid('param');
    const { documentType } = c.req.valid('json');
    const { record, changed } = await acceptCancel(deps, c.var.connection.name, externalCode, documentType);
    return c.json(recordView(record, await deps.store.pushes.waitsOf(record.id)), changed ? 202 : 200);
  });
};
