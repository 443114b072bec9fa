import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { operationId } from '../../lib/operation-id.js';
import { createClient } from '../clients/create.js';
import { type ClientKind, clientView, findTenantClient, listClients } from '../clients/find.js';
import { deleteClient, regenerateSecret, setClientEnabled } from '../clients/manage.js';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { json, jsonBody } from './common.js';
import {
  clientCredentialsSchema,
  clientParams,
  clientViewSchema,
  controlErrorSchema,
  createApiClientSchema,
  createOAuthClientSchema,
  tenantParams,
} from './control-schemas.js';
import { controlUserRoutes } from './control-users.js';

const tags = ['Emulator control'];
const ERRORS = {
  400: json(controlErrorSchema, 'Invalid request'),
  401: json(controlErrorSchema, 'Admin token required'),
  403: json(controlErrorSchema, 'Not from loopback'),
  404: json(controlErrorSchema, 'Unknown tenant or client'),
};

/** The same management actions for API clients (option A) and OAuth2 clients (option B). */
function manageRoutes(
  app: EmulatorApp,
  services: EmulatorServices,
  kind: ClientKind,
  segment: string,
  label: string,
  /** The client kind in operationIds: `controlListApiClients`, `controlDisableOAuthClient`. */
  name: string,
): void {
  const { ctx } = services;
  const base = `${CONTROL_PREFIX}/tenants/{tenant}/${segment}`;
  const one = `${base}/{clientId}`;
  const view = (tenant: string, clientId: string) => clientView(findTenantClient(ctx, tenant, kind, clientId)!);

  app.openapi(
    createRoute({
      method: 'get',
      operationId: `controlList${name}s`,
      security: CONTROL_SECURITY,
      path: base,
      tags,
      summary: `List ${label}s (never their secrets)`,
      request: { params: tenantParams },
      responses: { 200: json(z.array(clientViewSchema), `${label}s`), ...ERRORS },
    }),
    (c) => c.json(listClients(ctx, c.req.valid('param').tenant, kind), 200),
  );
  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        operationId: operationId('control', action, name),
        security: CONTROL_SECURITY,
        path: `${one}/${action}`,
        tags,
        summary: `${action === 'disable' ? 'Suspend' : 'Resume'} a ${label}`,
        request: { params: clientParams },
        responses: { 200: json(clientViewSchema, `The ${label}`), ...ERRORS },
      }),
      (c) => {
        const { tenant, clientId } = c.req.valid('param');
        setClientEnabled(ctx, tenant, kind, clientId, enabled);
        return c.json(view(tenant, clientId), 200);
      },
    );
  }
  app.openapi(
    createRoute({
      method: 'post',
      operationId: `controlRegenerate${name}Secret`,
      security: CONTROL_SECURITY,
      path: `${one}/regenerate-secret`,
      tags,
      summary: `New secret for a ${label}; the old one and its tokens stop at once`,
      request: { params: clientParams },
      responses: { 200: json(clientCredentialsSchema, 'The new credentials, shown once'), ...ERRORS },
    }),
    (c) => {
      const { tenant, clientId } = c.req.valid('param');
      return c.json({ client_id: clientId, client_secret: regenerateSecret(ctx, tenant, kind, clientId) }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      operationId: `controlDelete${name}`,
      security: CONTROL_SECURITY,
      path: one,
      tags,
      summary: `Delete a ${label}, revoking its tokens`,
      request: { params: clientParams },
      responses: { 204: { description: 'Deleted' }, ...ERRORS },
    }),
    (c) => {
      const { tenant, clientId } = c.req.valid('param');
      deleteClient(ctx, tenant, kind, clientId);
      return c.body(null, 204);
    },
  );
}

export function controlClientRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const { ctx } = services;
  app.openapi(
    createRoute({
      method: 'post',
      operationId: 'controlCreateApiClient',
      security: CONTROL_SECURITY,
      path: `${CONTROL_PREFIX}/tenants/{tenant}/api-clients`,
      tags,
      summary: 'Create an API client (Plugins > REST API > API Clients); the secret is shown once',
      request: { params: tenantParams, body: jsonBody(createApiClientSchema, 'Client name') },
      responses: { 201: json(clientCredentialsSchema, 'client_id and client_secret'), ...ERRORS },
    }),
    (c) => {
      const { name } = c.req.valid('json');
      return c.json({ ...createClient(ctx, c.req.valid('param').tenant, { kind: 'api', name }), name }, 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      operationId: 'controlCreateOAuthClient',
      security: CONTROL_SECURITY,
      path: `${CONTROL_PREFIX}/tenants/{tenant}/oauth-clients`,
      tags,
      summary: 'Provision OAuth2 (option B) credentials for an audience',
      request: { params: tenantParams, body: jsonBody(createOAuthClientSchema, 'Audience') },
      responses: { 201: json(clientCredentialsSchema, 'client_id, client_secret and audience'), ...ERRORS },
    }),
    (c) => {
      const { audience } = c.req.valid('json');
      return c.json({ ...createClient(ctx, c.req.valid('param').tenant, { kind: 'oauth', audience }), audience }, 201);
    },
  );
  manageRoutes(app, services, 'api', 'api-clients', 'API client', 'ApiClient');
  manageRoutes(app, services, 'oauth', 'oauth-clients', 'OAuth2 client', 'OAuthClient');
  controlUserRoutes(app, services);
}
