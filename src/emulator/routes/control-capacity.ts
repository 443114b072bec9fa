import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ControlError } from '../errors.js';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { controlTenantContext } from '../tenants/find.js';
import { json, jsonBody } from './common.js';
import { CONTROL_ERRORS } from './control-common.js';
import { tenantParams } from './control-schemas.js';

const tags = ['Emulator capacity'];
const path = `${CONTROL_PREFIX}/tenants/{tenant}/capacity`;

const inputSchema = z
  .strictObject({
    ratePerSecond: z
      .number()
      .positive()
      .max(1_000_000)
      .optional()
      .meta({ description: 'Requests per second the tenant may make; beyond it, 429 with Retry-After' }),
    burst: z.int().min(1).max(1_000_000).optional().meta({
      description: 'Requests the rate lets through at once after a quiet spell (default: one second of the rate)',
    }),
    concurrency: z
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .meta({ description: 'Requests served at once; beyond it they queue, so latency rises' }),
    latencyMs: z
      .int()
      .min(0)
      .max(60_000)
      .optional()
      .meta({ description: 'Time every API call takes at least, holding its slot' }),
  })
  .refine((v) => v.burst === undefined || v.ratePerSecond !== undefined, {
    message: 'burst needs ratePerSecond',
    path: ['burst'],
  })
  .meta({ id: 'EmulatorCapacityInput', description: 'Each part optional; one left out is unlimited (latency: 0).' });

const capacitySchema = z
  .object({
    ratePerSecond: z.number().nullable(),
    burst: z.number().nullable(),
    concurrency: z.number().nullable(),
    latencyMs: z.number(),
    stats: z.object({
      admitted: z.int().meta({ description: 'API calls let in since the capacity was set' }),
      limited: z.int().meta({ description: 'API calls answered 429' }),
      queued: z.int().meta({ description: 'Calls waiting for a slot now' }),
      active: z.int().meta({ description: 'Calls being served now' }),
    }),
  })
  .meta({ id: 'EmulatorCapacity' });

const put = createRoute({
  method: 'put',
  operationId: 'controlPutCapacity',
  security: CONTROL_SECURITY,
  path,
  tags,
  summary: "Model the tenant's WMS capacity: rate limit (429 + Retry-After), concurrency (queueing) and base latency",
  request: {
    params: tenantParams,
    body: jsonBody(inputSchema, '{"ratePerSecond": 200, "burst": 20, "concurrency": 64, "latencyMs": 50}'),
  },
  responses: { 200: json(capacitySchema, 'The capacity now in force (counters start at zero)'), ...CONTROL_ERRORS },
});
const get = createRoute({
  method: 'get',
  operationId: 'controlGetCapacity',
  security: CONTROL_SECURITY,
  path,
  tags,
  summary: "The tenant's capacity model with its counters (404 when none is set)",
  request: { params: tenantParams },
  responses: { 200: json(capacitySchema, 'The capacity'), ...CONTROL_ERRORS },
});
const remove = createRoute({
  method: 'delete',
  operationId: 'controlDeleteCapacity',
  security: CONTROL_SECURITY,
  path,
  tags,
  summary: 'Turn the capacity model off: unlimited, no added latency',
  request: { params: tenantParams },
  responses: { 204: { description: 'Off' }, ...CONTROL_ERRORS },
});

/** PUT/GET/DELETE /_emulator/tenants/{tenant}/capacity */
export function controlCapacityRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const { ctx, capacity } = services;
  const tenantId = (id: string) => controlTenantContext(ctx, id).tenant.id;
  app.openapi(put, (c) => c.json(capacity.set(tenantId(c.req.valid('param').tenant), c.req.valid('json')), 200));
  app.openapi(get, (c) => {
    const id = tenantId(c.req.valid('param').tenant);
    const found = capacity.get(id);
    if (!found) throw new ControlError(404, 'capacity_not_set', `Tenant "${id}" has no capacity model (unlimited)`);
    return c.json(found, 200);
  });
  app.openapi(remove, (c) => {
    capacity.remove(tenantId(c.req.valid('param').tenant));
    return c.body(null, 204);
  });
}
