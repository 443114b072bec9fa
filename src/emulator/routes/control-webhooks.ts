import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ControlError } from '../errors.js';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { controlTenantContext } from '../tenants/find.js';
import { hasCredentials } from '../webhooks/dispatcher.js';
import { resendWebhook } from '../webhooks/resend.js';
import { getWebhookConfig, setWebhookConfig, webhookConfigView } from '../webhooks/settings.js';
import { listWebhookLogRows, pendingCount, webhookLogEntry, webhookLogRow } from '../webhooks/view.js';
import { json, jsonBody } from './common.js';
import { CONTROL_ERRORS, optionalBody } from './control-common.js';
import { tenantParams } from './control-schemas.js';
import {
  settleSchema,
  viewSchema,
  webhookConfigInputSchema,
  webhookConfigSchema,
  webhookLogQuerySchema,
} from './operation-schemas.js';

const tags = ['Emulator webhooks'];
const T = `${CONTROL_PREFIX}/tenants/{tenant}`;
const logEntry = viewSchema('EmulatorWebhookLogEntry');
const idParams = z.object({ tenant: z.string(), id: z.coerce.number().int().positive() });

const put = createRoute({
  method: 'put',
  operationId: 'controlPutWebhooks',
  security: CONTROL_SECURITY,
  path: `${T}/webhooks`,
  tags,
  summary: 'Set the webhook URLs, Basic credentials and test knobs (replaces the whole configuration)',
  request: { params: tenantParams, body: jsonBody(webhookConfigInputSchema, 'Plugins > REST API > Webhooks') },
  responses: { 200: json(webhookConfigSchema, 'The configuration (never the password)'), ...CONTROL_ERRORS },
});
const get = createRoute({
  method: 'get',
  operationId: 'controlGetWebhooks',
  security: CONTROL_SECURITY,
  path: `${T}/webhooks`,
  tags,
  summary: 'The webhook configuration (never the password)',
  request: { params: tenantParams },
  responses: { 200: json(webhookConfigSchema, 'The configuration'), ...CONTROL_ERRORS },
});
const list = createRoute({
  method: 'get',
  operationId: 'controlListWebhookLog',
  security: CONTROL_SECURITY,
  path: `${T}/webhook-log`,
  tags,
  summary: 'The webhook log, oldest first (filter by status, kind, closingDocumentCode)',
  request: { params: tenantParams, query: webhookLogQuerySchema },
  responses: { 200: json(z.array(logEntry), 'Webhooks'), ...CONTROL_ERRORS },
});
const one = createRoute({
  method: 'get',
  operationId: 'controlGetWebhookLogEntry',
  security: CONTROL_SECURITY,
  path: `${T}/webhook-log/{id}`,
  tags,
  summary: 'One webhook: request, response, duration, outcome',
  request: { params: idParams },
  responses: { 200: json(logEntry, 'The webhook'), ...CONTROL_ERRORS },
});
const resend = createRoute({
  method: 'post',
  operationId: 'controlResendWebhook',
  security: CONTROL_SECURITY,
  path: `${T}/webhook-log/{id}/resend`,
  tags,
  summary: 'Re-send a failed close document (same closingDocumentCode and body); 409 for stock regularizations',
  request: { params: idParams },
  responses: { 202: json(logEntry, 'The new webhook, pending'), ...CONTROL_ERRORS },
});
const settle = createRoute({
  method: 'post',
  operationId: 'controlSettleWebhooks',
  security: CONTROL_SECURITY,
  path: `${T}/webhook-log/settle`,
  tags,
  summary: 'Wait (up to timeoutMs, default 10000) until the tenant has no pending webhook',
  request: { params: tenantParams, body: optionalBody(settleSchema, 'How long to wait at most') },
  responses: {
    200: json(z.object({ settled: z.boolean(), pending: z.int() }), 'settled: false when the wait timed out'),
    ...CONTROL_ERRORS,
  },
});

export function controlWebhookRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const { ctx } = services;
  const tenant = (id: string) => controlTenantContext(ctx, id);
  app.openapi(put, (c) => {
    const t = tenant(c.req.valid('param').tenant);
    return c.json(webhookConfigView(setWebhookConfig(ctx, t.tenant.id, c.req.valid('json'))), 200);
  });
  app.openapi(get, (c) =>
    c.json(webhookConfigView(getWebhookConfig(ctx, tenant(c.req.valid('param').tenant).tenant.id)), 200),
  );
  app.openapi(list, (c) => {
    const id = tenant(c.req.valid('param').tenant).tenant.id;
    const withCredentials = hasCredentials(getWebhookConfig(ctx, id));
    return c.json(
      listWebhookLogRows(ctx, id, c.req.valid('query')).map((r) => webhookLogEntry(r, withCredentials)),
      200,
    );
  });
  app.openapi(one, (c) => {
    const { tenant: name, id } = c.req.valid('param');
    const t = tenant(name);
    const row = webhookLogRow(ctx, id);
    if (!row || row.tenant_id !== t.tenant.id)
      throw new ControlError(404, 'webhook_not_found', `Webhook ${id} does not exist in tenant "${name}"`);
    return c.json(webhookLogEntry(row, hasCredentials(getWebhookConfig(ctx, t.tenant.id))), 200);
  });
  app.openapi(resend, (c) => c.json(resendWebhook(tenant(c.req.valid('param').tenant), c.req.valid('param').id), 202));
  app.openapi(settle, async (c) => {
    const id = tenant(c.req.valid('param').tenant).tenant.id;
    const settled = await services.webhooks.settled(id, c.req.valid('json').timeoutMs ?? 10_000).then(
      () => true,
      () => false,
    );
    return c.json({ settled, pending: pendingCount(ctx, id) }, 200);
  });
}
