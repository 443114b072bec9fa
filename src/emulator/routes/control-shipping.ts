import { createRoute } from '@hono/zod-openapi';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { cancelShippingOrder, dispatchShippingOrder } from '../shipping/dispatch.js';
import { openShippingOrder } from '../shipping/open.js';
import { packShippingOrder } from '../shipping/pack.js';
import { pickShippingOrder } from '../shipping/pick.js';
import { mustFindShippingOrder } from '../shipping/rows.js';
import { shippingOrderView } from '../shipping/view.js';
import { controlTenantContext } from '../tenants/find.js';
import { json, jsonBody } from './common.js';
import { CONTROL_ERRORS, optionalBody, tenantCodeParams } from './control-common.js';
import { tenantParams } from './control-schemas.js';
import {
  observationsSchema,
  openShippingOrderSchema,
  packSchema,
  pickSchema,
  viewSchema,
} from './operation-schemas.js';

const tags = ['Emulator warehouse actions'];
const BASE = `${CONTROL_PREFIX}/tenants/{tenant}/shipping-orders`;
const order = viewSchema('EmulatorShippingOrder');

const open = createRoute({
  method: 'post',
  operationId: 'controlOpenShippingOrder',
  security: CONTROL_SECURITY,
  path: BASE,
  tags,
  summary: 'Open a shipping order (NEW) for an outbound document; it moves to IN_PROGRESS',
  request: {
    params: tenantParams,
    body: jsonBody(openShippingOrderSchema, 'Document external code, optional warehouse'),
  },
  responses: { 201: json(order, 'The shipping order, with its shippingOrderCode'), ...CONTROL_ERRORS },
});
const get = createRoute({
  method: 'get',
  operationId: 'controlGetShippingOrder',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}`,
  tags,
  summary: 'A shipping order: status, picks, packings, closing document',
  request: { params: tenantCodeParams },
  responses: { 200: json(order, 'The shipping order'), ...CONTROL_ERRORS },
});
const pick = createRoute({
  method: 'post',
  operationId: 'controlPickShippingOrder',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}/pick`,
  tags,
  summary: 'Pick lines: stock reserved (reservedShipping); → PICKING',
  request: { params: tenantCodeParams, body: optionalBody(pickSchema, 'Lines; left out, everything still to pick') },
  responses: { 200: json(order, 'The shipping order'), ...CONTROL_ERRORS },
});
const pack = createRoute({
  method: 'post',
  operationId: 'controlPackShippingOrder',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}/pack`,
  tags,
  summary: 'Pack picked goods into packings; → PACKED',
  request: {
    params: tenantCodeParams,
    body: optionalBody(packSchema, 'Packings; left out, one packing with everything'),
  },
  responses: { 200: json(order, 'The shipping order'), ...CONTROL_ERRORS },
});
const dispatch = createRoute({
  method: 'post',
  operationId: 'controlDispatchShippingOrder',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}/dispatch`,
  tags,
  summary:
    'Dispatch fully: stock removed, reservations released, document EXECUTED, close webhook queued; → DISPATCHED',
  request: { params: tenantCodeParams, body: optionalBody(observationsSchema, 'Operator notes') },
  responses: { 200: json(order, 'The shipping order and `webhookIds`'), ...CONTROL_ERRORS },
});
const cancel = createRoute({
  method: 'post',
  operationId: 'controlCancelShippingOrder',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}/cancel`,
  tags,
  summary: 'Cancel: reservations released, document CREATED again; → CANCELLED',
  request: { params: tenantCodeParams },
  responses: { 200: json(order, 'The shipping order'), ...CONTROL_ERRORS },
});

export function controlShippingRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const tenant = (id: string) => controlTenantContext(services.ctx, id);
  app.openapi(open, (c) => c.json(openShippingOrder(tenant(c.req.valid('param').tenant), c.req.valid('json')), 201));
  app.openapi(get, (c) => {
    const { tenant: id, code } = c.req.valid('param');
    return c.json(shippingOrderView(services.ctx, mustFindShippingOrder(tenant(id), code)), 200);
  });
  app.openapi(pick, (c) =>
    c.json(pickShippingOrder(tenant(c.req.valid('param').tenant), c.req.valid('param').code, c.req.valid('json')), 200),
  );
  app.openapi(pack, (c) =>
    c.json(packShippingOrder(tenant(c.req.valid('param').tenant), c.req.valid('param').code, c.req.valid('json')), 200),
  );
  app.openapi(dispatch, (c) => {
    const { result, webhookIds } = dispatchShippingOrder(
      tenant(c.req.valid('param').tenant),
      c.req.valid('param').code,
      c.req.valid('json'),
    );
    return c.json({ ...result, webhookIds }, 200);
  });
  app.openapi(cancel, (c) =>
    c.json(cancelShippingOrder(tenant(c.req.valid('param').tenant), c.req.valid('param').code), 200),
  );
}
