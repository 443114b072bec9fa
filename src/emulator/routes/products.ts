import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { productExternalCodesSchema, productObservationsSchema, productSchema, WMS_PATHS } from '../../wms/index.js';
import { type EmulatorApp, type EmulatorServices, requestTenant } from '../http/env.js';
import { createProduct } from '../products/create.js';
import { getProduct } from '../products/get.js';
import { listProducts } from '../products/list.js';
import { allProductExternalCodes, updateProductObservations } from '../products/observations.js';
import { updateProduct } from '../products/update.js';
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

const tags = ['Products'];

const list = createRoute({
  method: 'get',
  path: WMS_PATHS.product,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'listProducts',
  summary: '1. List products with criteria',
  parameters: listParameters('ProductCriteria'),
  responses: { 200: { ...json(z.array(productSchema), 'A page of products'), headers: LIST_HEADERS }, ...WMS_ERRORS },
});

const create = createRoute({
  method: 'post',
  path: WMS_PATHS.product,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'createProduct',
  summary: '2. Create a product',
  request: { body: jsonBody(productSchema, 'The product') },
  responses: { 200: json(productSchema, 'The product as stored'), ...WMS_ERRORS },
});

const update = createRoute({
  method: 'put',
  path: WMS_PATHS.product,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'updateProduct',
  summary: '3. Update a product (found by externalCode)',
  request: { body: jsonBody(productSchema, 'The product') },
  responses: { 200: json(productSchema, 'The product as stored'), ...WMS_ERRORS },
});

const get = createRoute({
  method: 'get',
  path: WMS_PATHS.productByExternalCode,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'getProduct',
  summary: '4. Get a product',
  request: { params: externalCodeParams },
  responses: { 200: json(productSchema, 'The product'), ...NOT_FOUND('Product'), ...WMS_ERRORS },
});

const observations = createRoute({
  method: 'post',
  path: WMS_PATHS.productUpdateObservations,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'updateProductObservations',
  summary: '5. Update the observations of a product',
  request: {
    params: externalCodeParams,
    body: jsonBody(productObservationsSchema, 'The observations, as a JSON string'),
  },
  responses: { 200: json(z.boolean(), 'true'), ...NOT_FOUND('Product'), ...WMS_ERRORS },
});

const externalCodes = createRoute({
  method: 'get',
  path: WMS_PATHS.productAllExternalCodes,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'allProductExternalCodes',
  summary: '6. All product external codes, as one comma-separated JSON string',
  responses: { 200: json(productExternalCodesSchema, 'The codes'), ...WMS_ERRORS },
});

export function productRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const ctx = (c: Parameters<typeof requestTenant>[1]) => requestTenant(services, c);
  app.openapi(list, (c) => {
    const page = listProducts(ctx(c), c.req.url);
    return c.json(page.body, 200, page.headers);
  });
  app.openapi(create, (c) => c.json(createProduct(ctx(c), c.req.valid('json')), 200));
  app.openapi(update, (c) => c.json(updateProduct(ctx(c), c.req.valid('json')), 200));
  app.openapi(get, (c) => c.json(getProduct(ctx(c), c.req.valid('param').externalCode), 200));
  app.openapi(observations, (c) =>
    c.json(updateProductObservations(ctx(c), c.req.valid('param').externalCode, c.req.valid('json')), 200),
  );
  app.openapi(externalCodes, (c) => c.json(allProductExternalCodes(ctx(c)), 200));
}
