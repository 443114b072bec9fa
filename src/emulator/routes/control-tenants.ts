import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ControlError } from '../errors.js';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { createTenant } from '../tenants/create.js';
import { findTenant, listTenants } from '../tenants/find.js';
import { deleteTenant, resetTenant } from '../tenants/reset.js';
import { updateTenantSettings } from '../tenants/update-settings.js';
import { json, jsonBody } from './common.js';
import {
  controlErrorSchema,
  createTenantSchema,
  tenantParams,
  tenantSchema,
  tenantSettingsSchema,
} from './control-schemas.js';

const tags = ['Emulator control'];
const ERRORS = {
  400: json(controlErrorSchema, 'Invalid request'),
  401: json(controlErrorSchema, 'Admin token required'),
  403: json(controlErrorSchema, 'Not from loopback'),
  404: json(controlErrorSchema, 'Unknown tenant'),
};
const T = `${CONTROL_PREFIX}/tenants`;

const create = createRoute({
  method: 'post',
  operationId: 'controlCreateTenant',
  security: CONTROL_SECURITY,
  path: T,
  tags,
  summary: 'Create a tenant',
  request: { body: jsonBody(createTenantSchema, 'Tenant id and optional settings') },
  responses: { 201: json(tenantSchema, 'The tenant'), 409: json(controlErrorSchema, 'The tenant exists'), ...ERRORS },
});
const list = createRoute({
  method: 'get',
  operationId: 'controlListTenants',
  security: CONTROL_SECURITY,
  path: T,
  tags,
  summary: 'List tenants',
  responses: { 200: json(z.array(tenantSchema), 'Tenants'), ...ERRORS },
});
const get = createRoute({
  method: 'get',
  operationId: 'controlGetTenant',
  security: CONTROL_SECURITY,
  path: `${T}/{tenant}`,
  tags,
  summary: 'Get a tenant',
  request: { params: tenantParams },
  responses: { 200: json(tenantSchema, 'The tenant'), ...ERRORS },
});
const remove = createRoute({
  method: 'delete',
  operationId: 'controlDeleteTenant',
  security: CONTROL_SECURITY,
  path: `${T}/{tenant}`,
  tags,
  summary: 'Delete a tenant with everything it owns',
  request: { params: tenantParams },
  responses: { 204: { description: 'Deleted' }, ...ERRORS },
});
const settings = createRoute({
  method: 'put',
  operationId: 'controlPutTenantSettings',
  security: CONTROL_SECURITY,
  path: `${T}/{tenant}/settings`,
  tags,
  summary: 'Set API_WITH_LOT / API_WITH_EXPIRATION_DATE',
  request: { params: tenantParams, body: jsonBody(tenantSettingsSchema, 'Settings') },
  responses: { 200: json(tenantSchema, 'The tenant'), ...ERRORS },
});
const resetOne = createRoute({
  method: 'post',
  operationId: 'controlResetTenant',
  security: CONTROL_SECURITY,
  path: `${T}/{tenant}/reset`,
  tags,
  summary: "Clear a tenant's data (keeps the tenant, its settings and clients)",
  request: { params: tenantParams },
  responses: { 204: { description: 'Cleared' }, ...ERRORS },
});
const resetEverything = createRoute({
  method: 'post',
  operationId: 'controlResetAll',
  security: CONTROL_SECURITY,
  path: `${CONTROL_PREFIX}/reset`,
  tags,
  summary: 'Back to the start state (all tenants removed; the seed, if any, applied again)',
  responses: { 204: { description: 'Reset' }, ...ERRORS },
});

export function controlTenantRoutes(app: EmulatorApp, services: EmulatorServices, resetAll: () => void): void {
  const { ctx } = services;
  app.openapi(create, (c) => c.json(createTenant(ctx, c.req.valid('json')), 201));
  app.openapi(list, (c) => c.json(listTenants(ctx), 200));
  app.openapi(get, (c) => {
    const tenant = findTenant(ctx, c.req.valid('param').tenant);
    if (!tenant)
      throw new ControlError(404, 'tenant_not_found', `Tenant "${c.req.valid('param').tenant}" does not exist`);
    return c.json(tenant, 200);
  });
  app.openapi(remove, (c) => {
    deleteTenant(ctx, c.req.valid('param').tenant);
    return c.body(null, 204);
  });
  app.openapi(settings, (c) =>
    c.json(updateTenantSettings(ctx, c.req.valid('param').tenant, c.req.valid('json')), 200),
  );
  app.openapi(resetOne, (c) => {
    resetTenant(ctx, c.req.valid('param').tenant);
    return c.body(null, 204);
  });
  app.openapi(resetEverything, (c) => {
    resetAll();
    return c.body(null, 204);
  });
}
