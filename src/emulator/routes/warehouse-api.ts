import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  commonResultSchema,
  packingByDocumentCodeQuerySchema,
  packingByExternalCodeQuerySchema,
  packingSchema,
  receptionDifferencesSchema,
  stockRequestSchema,
  stockSchema,
  storageSystemDispatchedSchema,
  WMS_PATHS,
} from '../../wms/index.js';
import { bearerAuth } from '../http/auth.js';
import { type EmulatorApp, type EmulatorServices, requestTenant } from '../http/env.js';
import { receptionDifferences } from '../receptions/differences.js';
import { packingByDocumentCode, packingByExternalCode } from '../shipping/packing-query.js';
import { storageSystemDispatched } from '../shipping/storage-system.js';
import { queryStock } from '../stock/query.js';
import { BOTH_SCHEMES, json, jsonBody, NOT_FOUND, WMS_ERRORS } from './common.js';

const stock = createRoute({
  method: 'post',
  path: WMS_PATHS.productStock,
  tags: ['Stock'],
  security: BOTH_SCHEMES,
  operationId: 'queryStock',
  summary: '7. Stock of products (a JSON array of rows: per product, per lot with groupedByLot)',
  request: {
    body: jsonBody(stockRequestSchema, '`products` overrides `product`/`lot`; `location` wins over `shippingProcess`'),
  },
  responses: { 200: json(z.array(stockSchema), 'Stock rows'), ...NOT_FOUND('Product'), ...WMS_ERRORS },
});

const differences = createRoute({
  method: 'get',
  path: WMS_PATHS.receptionDifferences,
  tags: ['Receptions'],
  security: BOTH_SCHEMES,
  operationId: 'receptionDifferences',
  summary: '17. Quantity differences of a reception (positive = surplus, negative = shortage)',
  request: { params: z.object({ receptionCode: z.string().min(1) }) },
  responses: { 200: json(receptionDifferencesSchema, 'Differences'), ...NOT_FOUND('Reception'), ...WMS_ERRORS },
});

const PACKING_ANSWERS = {
  200: json(z.array(packingSchema), 'One row per packing and product/lot it holds'),
  ...NOT_FOUND('Warehouse, packing or shipping order'),
  ...WMS_ERRORS,
};

const byExternalCode = createRoute({
  method: 'get',
  path: WMS_PATHS.packingByExternalCode,
  tags: ['Expedition'],
  security: BOTH_SCHEMES,
  operationId: 'getPackingByExternalCode',
  summary: "18. Packing of a document's shipping order, by the document's external code",
  request: { query: packingByExternalCodeQuerySchema },
  responses: PACKING_ANSWERS,
});

const byDocumentCode = createRoute({
  method: 'get',
  path: WMS_PATHS.packingByDocumentCode,
  tags: ['Expedition'],
  security: BOTH_SCHEMES,
  operationId: 'getPackingByDocumentCode',
  summary: "19. Packing of a document's shipping order, by the WMS document code",
  request: { query: packingByDocumentCodeQuerySchema },
  responses: PACKING_ANSWERS,
});

export function storageSystemRoute(services: EmulatorServices) {
  return createRoute({
    method: 'post',
    path: WMS_PATHS.storageSystemDispatched,
    tags: ['Storage system'],
    security: [{ oauth2: [] }],
    operationId: 'storageSystemDispatched',
    summary: '20. Dispatch result of an automated storage system (OAuth2 tokens only)',
    middleware: [bearerAuth(services, ['oauth'])] as const,
    request: {
      body: jsonBody(
        storageSystemDispatchedSchema,
        'Dispatched lines: orderNumber = shipping order code, productCode = SKU or external code',
      ),
    },
    responses: { 200: json(commonResultSchema, 'Common result'), ...WMS_ERRORS },
  });
}

/** Endpoints 7 and 17-20. */
export function warehouseApiRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const ctx = (c: Parameters<typeof requestTenant>[1]) => requestTenant(services, c);
  app.openapi(stock, (c) => c.json(queryStock(ctx(c), c.req.valid('json')), 200));
  app.openapi(differences, (c) => c.json(receptionDifferences(ctx(c), c.req.valid('param').receptionCode), 200));
  app.openapi(byExternalCode, (c) => c.json(packingByExternalCode(ctx(c), c.req.valid('query')), 200));
  app.openapi(byDocumentCode, (c) => c.json(packingByDocumentCode(ctx(c), c.req.valid('query')), 200));
  app.openapi(storageSystemRoute(services), (c) =>
    c.json(storageSystemDispatched(ctx(c), c.req.valid('json')).result, 200),
  );
}
