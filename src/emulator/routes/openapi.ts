import { z } from 'zod';
import { apiReferencePage, apiReferenceScript } from '../../lib/api-reference.js';
import {
  deliveryPointCriteriaSchema,
  documentCriteriaSchema,
  OAUTH_TOKEN_PATH,
  pageableSchema,
  productCriteriaSchema,
  WMS_BASE_PATH,
} from '../../wms/index.js';
import type { EmulatorApp } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';

export const OPENAPI_PATH = `${CONTROL_PREFIX}/openapi.json`;
export const DOCS_PATH = `${CONTROL_PREFIX}/docs`;
/** The reference's browser bundle, served by the emulator itself so the docs work offline. */
export const DOCS_SCRIPT_PATH = `${DOCS_PATH}/reference.js`;

/** Every tag an operation uses: the WMS API's own sections first, then the control API's. */
const TAGS = [
  { name: 'Authentication', description: 'Tokens: option A (API client) and option B (OAuth2 identity provider).' },
  { name: 'Products', description: 'WMS API: product master data.' },
  { name: 'Documents', description: 'WMS API: reception notes, shipping orders and returns.' },
  { name: 'Delivery points', description: 'WMS API: delivery points of shipping orders.' },
  { name: 'Stock', description: 'WMS API: stock per product.' },
  { name: 'Receptions', description: 'WMS API: differences of a closed reception.' },
  { name: 'Expedition', description: 'WMS API: packing of dispatched shipping orders.' },
  { name: 'Storage system', description: 'WMS API: results of an automated storage system.' },
  { name: 'Emulator control', description: 'Control API: tenants, API clients, OAuth2 clients and users.' },
  {
    name: 'Emulator warehouse actions',
    description: 'Control API: what warehouse staff do (receive, pick, pack, dispatch).',
  },
  { name: 'Emulator webhooks', description: 'Control API: webhook settings, the log of deliveries and their style.' },
  {
    name: 'Emulator faults and state',
    description: 'Control API: injected faults, token expiry, snapshot and restore.',
  },
  { name: 'Emulator capacity', description: 'Control API: request-rate limits per tenant.' },
];

/** The emulator's OpenAPI 3.1 document, generated from the same zod schemas it validates with. */
export function openApiRoutes(app: EmulatorApp): void {
  const registry = app.openAPIRegistry;
  registry.registerComponent('securitySchemes', 'apiClientToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: `Option A: POST ${WMS_BASE_PATH}/auth/token with client_id and client_secret (form body); valid 3600 s.`,
  });
  registry.registerComponent('securitySchemes', 'emulatorAdmin', {
    type: 'http',
    scheme: 'bearer',
    description:
      'EMULATOR_ADMIN_TOKEN, required by the control API when set; without it the control API is open on loopback only.',
  });
  registry.registerComponent('securitySchemes', 'oauth2', {
    type: 'oauth2',
    description: 'Option B: identity-provider tokens for an audience; valid 86400 s.',
    flows: { clientCredentials: { tokenUrl: OAUTH_TOKEN_PATH, scopes: {} } },
  });
  // Query-parameter objects are not referenced by any request schema, so they are added as plain
  // JSON Schema components (zod's own converter), which the list operations' parameters point to.
  const components: [string, z.ZodType][] = [
    ['ProductCriteria', productCriteriaSchema],
    ['ReceptionNoteCriteria', documentCriteriaSchema],
    ['DeliveryPointCriteria', deliveryPointCriteriaSchema],
    ['Pageable', pageableSchema],
  ];
  for (const [name, schema] of components) {
    const { $schema: _drop, ...jsonSchema } = z.toJSONSchema(schema, { metadata: z.registry(), io: 'input' });
    registry.registerComponent('schemas', name, jsonSchema as never);
  }

  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'WMS emulator',
      version: '1.0.0',
      description:
        'A stateful emulator of the warehouse management service external API (version 1.0.0), plus its own control API under /_emulator.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // The emulator has no public address of its own: clients call the origin they read this from.
    servers: [{ url: new URL(c.req.url).origin, description: 'This emulator' }],
    tags: TAGS,
  }));
  app.get(DOCS_SCRIPT_PATH, apiReferenceScript());
  app.get(
    DOCS_PATH,
    apiReferencePage({ title: 'WMS emulator API reference', specUrl: OPENAPI_PATH, scriptUrl: DOCS_SCRIPT_PATH }),
  );
}
