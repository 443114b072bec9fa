import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { createWmsProduct } from '../products/wms-product.js';
import { regularizeStock } from '../stock/regularize.js';
import { controlTenantContext } from '../tenants/find.js';
import { createWarehouse, listWarehouses } from '../warehouses/warehouses.js';
import { json, jsonBody } from './common.js';
import { CONTROL_ERRORS } from './control-common.js';
import { tenantParams } from './control-schemas.js';
import {
  regularizationSchema,
  viewSchema,
  warehouseInputSchema,
  warehouseSchema,
  wmsProductInputSchema,
} from './operation-schemas.js';

const tags = ['Emulator warehouse actions'];
const T = `${CONTROL_PREFIX}/tenants/{tenant}`;

const listWarehousesRoute = createRoute({
  method: 'get',
  operationId: 'controlListWarehouses',
  security: CONTROL_SECURITY,
  path: `${T}/warehouses`,
  tags,
  summary: "The tenant's warehouses (MAIN exists from the start)",
  request: { params: tenantParams },
  responses: { 200: json(z.array(warehouseSchema), 'Warehouses'), ...CONTROL_ERRORS },
});
const createWarehouseRoute = createRoute({
  method: 'post',
  operationId: 'controlCreateWarehouse',
  security: CONTROL_SECURITY,
  path: `${T}/warehouses`,
  tags,
  summary: 'Add a warehouse',
  request: { params: tenantParams, body: jsonBody(warehouseInputSchema, 'Code, external code, shipping process') },
  responses: { 201: json(warehouseSchema, 'The warehouse'), ...CONTROL_ERRORS },
});
const wmsProduct = createRoute({
  method: 'post',
  operationId: 'controlCreateWmsProduct',
  security: CONTROL_SECURITY,
  path: `${T}/wms-products`,
  tags,
  summary: 'Create a product in the WMS itself (no API external code: no regularization webhooks)',
  request: { params: tenantParams, body: jsonBody(wmsProductInputSchema, 'The product') },
  responses: { 201: json(viewSchema('EmulatorWmsProduct'), 'The product'), ...CONTROL_ERRORS },
});
const regularization = createRoute({
  method: 'post',
  operationId: 'controlRegularizeStock',
  security: CONTROL_SECURITY,
  path: `${T}/stock/regularizations`,
  tags,
  summary: 'Add (positive) or remove (negative) stock of a product and lot; queues one stock-regularization webhook',
  request: {
    params: tenantParams,
    body: jsonBody(regularizationSchema, 'Product, signed quantity, lot, warehouse, location'),
  },
  responses: {
    200: json(viewSchema('EmulatorRegularization'), 'What was adjusted and `webhookIds`'),
    ...CONTROL_ERRORS,
  },
});

export function controlStockRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const tenant = (id: string) => controlTenantContext(services.ctx, id);
  app.openapi(listWarehousesRoute, (c) => c.json(listWarehouses(tenant(c.req.valid('param').tenant)), 200));
  app.openapi(createWarehouseRoute, (c) =>
    c.json(createWarehouse(tenant(c.req.valid('param').tenant), c.req.valid('json')), 201),
  );
  app.openapi(wmsProduct, (c) =>
    c.json(createWmsProduct(tenant(c.req.valid('param').tenant), c.req.valid('json')), 201),
  );
  app.openapi(regularization, (c) => {
    const { result, webhookIds } = regularizeStock(tenant(c.req.valid('param').tenant), c.req.valid('json'));
    return c.json({ ...result, webhookIds }, 200);
  });
}
