import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { deliveryPointSchema, WMS_PATHS } from '../../wms/index.js';
import { listDeliveryPoints } from '../delivery-points/list.js';
import { createDeliveryPoint, getDeliveryPoint, updateDeliveryPoint } from '../delivery-points/write.js';
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

const tags = ['Delivery points'];

const list = createRoute({
  method: 'get',
  path: WMS_PATHS.deliveryPoint,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'listDeliveryPoints',
  summary: '13. List delivery points with criteria',
  parameters: listParameters('DeliveryPointCriteria'),
  responses: {
    200: { ...json(z.array(deliveryPointSchema), 'A page of delivery points'), headers: LIST_HEADERS },
    ...WMS_ERRORS,
  },
});

const create = createRoute({
  method: 'post',
  path: WMS_PATHS.deliveryPoint,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'createDeliveryPoint',
  summary: '14. Create a delivery point',
  request: { body: jsonBody(deliveryPointSchema, 'The delivery point') },
  responses: { 200: json(deliveryPointSchema, 'The delivery point as stored'), ...WMS_ERRORS },
});

const update = createRoute({
  method: 'put',
  path: WMS_PATHS.deliveryPoint,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'updateDeliveryPoint',
  summary: '15. Update a delivery point (found by externalCode)',
  request: { body: jsonBody(deliveryPointSchema, 'The delivery point') },
  responses: { 200: json(deliveryPointSchema, 'The delivery point as stored'), ...WMS_ERRORS },
});

const get = createRoute({
  method: 'get',
  path: WMS_PATHS.deliveryPointByExternalCode,
  tags,
  security: BOTH_SCHEMES,
  operationId: 'getDeliveryPoint',
  summary: '16. Get a delivery point',
  request: { params: externalCodeParams },
  responses: { 200: json(deliveryPointSchema, 'The delivery point'), ...NOT_FOUND('Delivery point'), ...WMS_ERRORS },
});

export function deliveryPointRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const ctx = (c: Parameters<typeof requestTenant>[1]) => requestTenant(services, c);
  app.openapi(list, (c) => {
    const page = listDeliveryPoints(ctx(c), c.req.url);
    return c.json(page.body, 200, page.headers);
  });
  app.openapi(create, (c) => c.json(createDeliveryPoint(ctx(c), c.req.valid('json')), 200));
  app.openapi(update, (c) => c.json(updateDeliveryPoint(ctx(c), c.req.valid('json')), 200));
  app.openapi(get, (c) => c.json(getDeliveryPoint(ctx(c), c.req.valid('param').externalCode), 200));
}
