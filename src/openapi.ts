import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './lib/http.js';

export const SERVICE_VERSION = '0.1.0';
export const OPENAPI_PATH = '/openapi.json';

/** Every tag an operation of the service uses, with what a reader finds under it. */
const TAGS = [
  {
    name: 'ERP intake',
    description: 'The ERP pushes products, delivery points and documents; wms-sync forwards them to the WMS.',
  },
  { name: 'ERP feed', description: 'What the WMS reported, as a feed the ERP reads with a cursor.' },
  { name: 'Reconciliation', description: "Comparing the WMS's stock with what wms-sync last reported." },
  { name: 'Webhooks', description: 'Called by the WMS when a document closes or stock changes.' },
  { name: 'Admin', description: "The operators' API (present only when ADMIN_TOKEN is set)." },
];

/**
 * The service's OpenAPI 3.1 document at /openapi.json: its security schemes, tags and servers. The
 * server is PUBLIC_URL when set, otherwise the origin the document was requested from, so a
 * client generated from it calls the address it was read from.
 */
export function registerServiceDocument(app: OpenAPIHono<AppEnv>, publicUrl: string | undefined): void {
  // Rooms' routes declare these schemes by name in their `security` (see docs/architecture.md).
  app.openAPIRegistry.registerComponent('securitySchemes', 'erpBearer', {
    type: 'http',
    scheme: 'bearer',
    description: "The connection's ERP_API_TOKEN; it selects the connection.",
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'webhookBasic', {
    type: 'http',
    scheme: 'basic',
    description: 'The Basic credentials configured for the connection in the WMS webhook settings.',
  });
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'wms-sync',
      version: SERVICE_VERSION,
      description: 'Webhook receiver for the WMS and the ERP API of wms-sync.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: publicUrl ?? new URL(c.req.url).origin, description: 'This wms-sync service' }],
    tags: TAGS,
  }));
}
