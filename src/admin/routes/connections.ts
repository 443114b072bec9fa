import { createRoute, z } from '@hono/zod-openapi';
import { errorResponse } from '../../lib/openapi-errors.js';
import { WEBHOOK_KINDS } from '../../wms/webhooks.js';
import { ADMIN_PREFIX, ADMIN_SECURITY, type AdminRouteRegistrar } from './types.js';

export const adminConnectionSchema = z
  .object({
    name: z.string().openapi({ example: 'acme' }),
    wmsBaseUrl: z.string().openapi({ description: 'Where the push jobs and reconciliation call the WMS' }),
    wmsAuthMode: z.enum(['client', 'oauth2']),
    webhookPaths: z
      .array(z.string())
      .openapi({ description: 'The receiver paths to configure in the WMS for this connection' }),
  })
  .openapi('AdminConnection');
export type AdminConnection = z.infer<typeof adminConnectionSchema>;

const listSchema = z.object({ connections: z.array(adminConnectionSchema) }).openapi('AdminConnectionList');

const route = createRoute({
  method: 'get',
  operationId: 'adminListConnections',
  path: `${ADMIN_PREFIX}/connections`,
  tags: ['Admin'],
  summary: 'The configured connections (no secrets)',
  security: ADMIN_SECURITY,
  responses: {
    200: { description: 'Every connection, by name', content: { 'application/json': { schema: listSchema } } },
    401: errorResponse('Missing or wrong admin bearer token'),
  },
});

/** GET /admin/v1/connections */
export const registerConnections: AdminRouteRegistrar = (app, deps) => {
  app.openapi(route, (c) => {
    const connections = deps.connections.all().map((conn) => ({
      name: conn.name,
      wmsBaseUrl: conn.wms.baseUrl,
      wmsAuthMode: conn.wms.authMode,
      webhookPaths: WEBHOOK_KINDS.map((kind) => `/webhooks/${conn.name}/${kind}`),
    }));
    return c.json({ connections }, 200);
  });
};
