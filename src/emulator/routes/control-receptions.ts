import { createRoute } from '@hono/zod-openapi';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { closeReception, submitReception } from '../receptions/close.js';
import { openReception } from '../receptions/open.js';
import { receiveLine } from '../receptions/receive.js';
import { mustFindReception } from '../receptions/rows.js';
import { receptionView } from '../receptions/view.js';
import { controlTenantContext } from '../tenants/find.js';
import { json, jsonBody } from './common.js';
import { CONTROL_ERRORS, optionalBody, tenantCodeParams } from './control-common.js';
import { tenantParams } from './control-schemas.js';
import { observationsSchema, openReceptionSchema, receiveLineSchema, viewSchema } from './operation-schemas.js';

const tags = ['Emulator warehouse actions'];
const BASE = `${CONTROL_PREFIX}/tenants/{tenant}/receptions`;
const reception = viewSchema('EmulatorReception');

const open = createRoute({
  method: 'post',
  operationId: 'controlOpenReception',
  security: CONTROL_SECURITY,
  path: BASE,
  tags,
  summary: 'Open a reception (NEW) for inbound documents; they move to IN_PROGRESS',
  request: {
    params: tenantParams,
    body: jsonBody(openReceptionSchema, 'Documents by external code, optional warehouse'),
  },
  responses: { 201: json(reception, 'The reception, with its receptionCode'), ...CONTROL_ERRORS },
});
const get = createRoute({
  method: 'get',
  operationId: 'controlGetReception',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}`,
  tags,
  summary: 'A reception: status, documents, received lines, closing documents',
  request: { params: tenantCodeParams },
  responses: { 200: json(reception, 'The reception'), ...CONTROL_ERRORS },
});
const line = createRoute({
  method: 'post',
  operationId: 'controlReceiveReceptionLine',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}/lines`,
  tags,
  summary: 'Register a received line (NEW → EXECUTING)',
  request: {
    params: tenantCodeParams,
    body: jsonBody(receiveLineSchema, 'Product, quantity, lot, expiry, serial numbers'),
  },
  responses: { 200: json(reception, 'The reception'), ...CONTROL_ERRORS },
});
const submit = createRoute({
  method: 'post',
  operationId: 'controlSubmitReception',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}/submit`,
  tags,
  summary: 'EXECUTING → SUBMITTED',
  request: { params: tenantCodeParams },
  responses: { 200: json(reception, 'The reception'), ...CONTROL_ERRORS },
});
const close = createRoute({
  method: 'post',
  operationId: 'controlCloseReception',
  security: CONTROL_SECURITY,
  path: `${BASE}/{code}/close`,
  tags,
  summary: 'Close: stock added, documents EXECUTED, close webhooks queued (CLOSING until delivered, then CLOSED)',
  request: {
    params: tenantCodeParams,
    body: optionalBody(observationsSchema, 'Operator notes (the payload observations)'),
  },
  responses: {
    200: json(reception, 'The reception and `webhookIds`, the ids of the queued webhooks'),
    ...CONTROL_ERRORS,
  },
});

export function controlReceptionRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const tenant = (id: string) => controlTenantContext(services.ctx, id);
  app.openapi(open, (c) => c.json(openReception(tenant(c.req.valid('param').tenant), c.req.valid('json')), 201));
  app.openapi(get, (c) => {
    const { tenant: id, code } = c.req.valid('param');
    return c.json(receptionView(services.ctx, mustFindReception(tenant(id), code)), 200);
  });
  app.openapi(line, (c) =>
    c.json(receiveLine(tenant(c.req.valid('param').tenant), c.req.valid('param').code, c.req.valid('json')), 200),
  );
  app.openapi(submit, (c) =>
    c.json(submitReception(tenant(c.req.valid('param').tenant), c.req.valid('param').code), 200),
  );
  app.openapi(close, (c) => {
    const { result, webhookIds } = closeReception(
      tenant(c.req.valid('param').tenant),
      c.req.valid('param').code,
      c.req.valid('json'),
    );
    return c.json({ ...result, webhookIds }, 200);
  });
}
