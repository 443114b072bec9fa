import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { documentCancelSchema, documentSchema, resultSchema, WMS_PATHS } from '../../wms/index.js';
import { createDocument } from '../documents/create.js';
import { listDocuments } from '../documents/list.js';
import { cancelDocument, getDocument, updateDocument } from '../documents/update.js';
import { type EmulatorApp, type EmulatorServices, requestTenant } from '../http/env.js';
import {
  BOTH_SCHEMES,
  externalCodeParams,
  json,
  jsonBody,
  LIST_HEADERS,
  listParameters,
  NOT_FOUND,
  WMS_ERRORS,
} from './common.js';

const tags = ['Documents'];

const list = createRoute({
  method: 'get',
  path: WMS_PATHS.document,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'listDocuments',
  summary: '8. List documents with criteria',
  parameters: listParameters('ReceptionNoteCriteria'),
  responses: { 200: { ...json(z.array(documentSchema), 'A page of documents'), headers: LIST_HEADERS }, ...WMS_ERRORS },
});

const create = createRoute({
  method: 'post',
  path: WMS_PATHS.document,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'createDocument',
  summary: '9. Create a document (externalCode is the idempotency key)',
  request: { body: jsonBody(documentSchema, 'The document') },
  responses: { 201: json(documentSchema, 'The document as stored (the existing one on a repeat)'), ...WMS_ERRORS },
});

const update = createRoute({
  method: 'put',
  path: WMS_PATHS.document,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'updateDocument',
  summary: '10. Update a document (found by externalCode; only in DRAFT or CREATED)',
  request: { body: jsonBody(documentSchema, 'The document') },
  responses: { 200: json(documentSchema, 'The document as stored'), ...WMS_ERRORS },
});

const get = createRoute({
  method: 'get',
  path: WMS_PATHS.documentByExternalCode,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'getDocument',
  summary: '11. Get a document',
  request: { params: externalCodeParams },
  responses: { 200: json(documentSchema, 'The document'), ...NOT_FOUND('Document'), ...WMS_ERRORS },
});

const cancel = createRoute({
  method: 'post',
  path: WMS_PATHS.documentCancel,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'cancelDocument',
  summary: '12. Cancel a document (only from DRAFT or CREATED)',
  request: { body: jsonBody(documentCancelSchema, 'Which document') },
  responses: { 200: json(resultSchema, 'Result'), ...NOT_FOUND('Document'), ...WMS_ERRORS },
});

export function documentRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const ctx = (c: Parameters<typeof requestTenant>[1]) => requestTenant(services, c);
  app.openapi(list, (c) => {
    const page = listDocuments(ctx(c), c.req.url);
    return c.json(page.body, 200, page.headers);
  });
  // A repeat answers 201 with the stored document too: the idempotent replay of the first answer.
  app.openapi(create, (c) => c.json(createDocument(ctx(c), c.req.valid('json')).document, 201));
  app.openapi(update, (c) => c.json(updateDocument(ctx(c), c.req.valid('json')), 200));
  app.openapi(get, (c) => c.json(getDocument(ctx(c), c.req.valid('param').externalCode), 200));
  app.openapi(cancel, (c) => c.json(cancelDocument(ctx(c), c.req.valid('json')), 200));
}
