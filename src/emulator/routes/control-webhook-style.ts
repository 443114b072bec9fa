import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { controlTenantContext } from '../tenants/find.js';
import { getWebhookStyle, setWebhookStyle } from '../webhooks/style.js';
import { json, jsonBody } from './common.js';
import { CONTROL_ERRORS } from './control-common.js';
import { tenantParams } from './control-schemas.js';

const tags = ['Emulator webhooks'];
const path = `${CONTROL_PREFIX}/tenants/{tenant}/webhook-style`;

const styleSchema = z
  .object({
    style: z
      .enum(['canonical', 'varied'])
      .meta({ description: 'canonical: one form, every member present; varied: spec-legal alternatives per webhook' }),
    seed: z
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .meta({ description: 'Chooses the variants; the same seed writes the same payload the same way' }),
  })
  .meta({ id: 'EmulatorWebhookStyle' });
const inputSchema = z
  .strictObject({ style: styleSchema.shape.style, seed: styleSchema.shape.seed.optional() })
  .meta({ id: 'EmulatorWebhookStyleInput' });

const put = createRoute({
  method: 'put',
  operationId: 'controlPutWebhookStyle',
  security: CONTROL_SECURITY,
  path,
  tags,
  summary: 'How webhook payloads are written: canonical (default) or varied, from a seed',
  request: {
    params: tenantParams,
    body: jsonBody(inputSchema, '{"style": "varied", "seed": 42} (seed defaults to 0)'),
  },
  responses: { 200: json(styleSchema, 'The style now in force'), ...CONTROL_ERRORS },
});
const get = createRoute({
  method: 'get',
  operationId: 'controlGetWebhookStyle',
  security: CONTROL_SECURITY,
  path,
  tags,
  summary: 'The webhook style of the tenant',
  request: { params: tenantParams },
  responses: { 200: json(styleSchema, 'The style'), ...CONTROL_ERRORS },
});

/** PUT/GET /_emulator/tenants/{tenant}/webhook-style */
export function controlWebhookStyleRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const { ctx } = services;
  app.openapi(put, (c) => {
    const t = controlTenantContext(ctx, c.req.valid('param').tenant);
    return c.json(setWebhookStyle(ctx, t.tenant.id, c.req.valid('json')), 200);
  });
  app.openapi(get, (c) =>
    c.json(getWebhookStyle(ctx, controlTenantContext(ctx, c.req.valid('param').tenant).tenant.id), 200),
  );
}
