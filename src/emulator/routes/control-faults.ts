import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ControlError } from '../errors.js';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { expireTenantTokens } from '../tokens/expire.js';
import { json, jsonBody } from './common.js';
import { CONTROL_ERRORS } from './control-common.js';
import { tenantParams } from './control-schemas.js';
import { faultInputSchema, snapshotNameSchema, viewSchema } from './operation-schemas.js';

const tags = ['Emulator faults and state'];
const fault = viewSchema('EmulatorFault');

const add = createRoute({
  method: 'post',
  operationId: 'controlAddFault',
  security: CONTROL_SECURITY,
  path: `${CONTROL_PREFIX}/faults`,
  tags,
  summary:
    'Inject a fault: answer a status, add latency or drop the connection for matching requests (or delay/drop outbound webhooks)',
  request: { body: jsonBody(faultInputSchema, 'What to match and what to do') },
  responses: { 201: json(fault, 'The fault, with its id'), ...CONTROL_ERRORS },
});
const list = createRoute({
  method: 'get',
  operationId: 'controlListFaults',
  security: CONTROL_SECURITY,
  path: `${CONTROL_PREFIX}/faults`,
  tags,
  summary: 'Active faults, with hits and remaining counts',
  responses: { 200: json(z.array(fault), 'Faults'), ...CONTROL_ERRORS },
});
const clear = createRoute({
  method: 'delete',
  operationId: 'controlClearFaults',
  security: CONTROL_SECURITY,
  path: `${CONTROL_PREFIX}/faults`,
  tags,
  summary: 'Remove every fault',
  responses: { 204: { description: 'Cleared' }, ...CONTROL_ERRORS },
});
const removeOne = createRoute({
  method: 'delete',
  operationId: 'controlDeleteFault',
  security: CONTROL_SECURITY,
  path: `${CONTROL_PREFIX}/faults/{id}`,
  tags,
  summary: 'Remove one fault',
  request: { params: z.object({ id: z.coerce.number().int().positive() }) },
  responses: { 204: { description: 'Removed' }, ...CONTROL_ERRORS },
});
const expire = createRoute({
  method: 'post',
  operationId: 'controlExpireTokens',
  security: CONTROL_SECURITY,
  path: `${CONTROL_PREFIX}/tenants/{tenant}/tokens/expire`,
  tags,
  summary:
    'Expire every token issued so far to the tenant\'s clients (401 "The access token expired"); new tokens work',
  request: { params: tenantParams },
  responses: { 204: { description: 'Expired' }, ...CONTROL_ERRORS },
});
const snapshot = createRoute({
  method: 'post',
  operationId: 'controlSnapshot',
  security: CONTROL_SECURITY,
  path: `${CONTROL_PREFIX}/snapshot`,
  tags,
  summary: "Write the whole state to a named snapshot (the data directory's snapshots folder, mode 0600)",
  request: { body: jsonBody(snapshotNameSchema, 'Its name') },
  responses: { 200: json(z.object({ name: z.string(), bytes: z.int() }), 'Written'), ...CONTROL_ERRORS },
});
const restore = createRoute({
  method: 'post',
  operationId: 'controlRestore',
  security: CONTROL_SECURITY,
  path: `${CONTROL_PREFIX}/restore`,
  tags,
  summary: 'Replace the whole state with a named snapshot',
  request: { body: jsonBody(snapshotNameSchema, 'Which snapshot') },
  responses: { 200: json(z.object({ name: z.string(), tenants: z.array(z.string()) }), 'Restored'), ...CONTROL_ERRORS },
});

export interface StateFiles {
  snapshot(name: string): { name: string; bytes: number };
  restore(name: string): { name: string; tenants: string[] };
}

export function controlFaultRoutes(app: EmulatorApp, services: EmulatorServices, files: StateFiles): void {
  app.openapi(add, (c) => c.json(services.faults.add(c.req.valid('json')), 201));
  app.openapi(list, (c) => c.json(services.faults.list(), 200));
  app.openapi(clear, (c) => {
    services.faults.clear();
    return c.body(null, 204);
  });
  app.openapi(removeOne, (c) => {
    if (!services.faults.remove(c.req.valid('param').id))
      throw new ControlError(404, 'fault_not_found', `Fault ${c.req.valid('param').id} does not exist`);
    return c.body(null, 204);
  });
  app.openapi(expire, (c) => {
    expireTenantTokens(services.ctx, c.req.valid('param').tenant);
    return c.body(null, 204);
  });
  app.openapi(snapshot, (c) => c.json(files.snapshot(c.req.valid('json').name), 200));
  app.openapi(restore, (c) => c.json(files.restore(c.req.valid('json').name), 200));
}
