import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { CONTROL_SECURITY } from '../http/control-auth.js';
import type { EmulatorApp, EmulatorServices } from '../http/env.js';
import { CONTROL_PREFIX } from '../http/zones.js';
import { createUser, deleteUser, listUsers } from '../users/users.js';
import { json, jsonBody } from './common.js';
import { CONTROL_ERRORS } from './control-common.js';
import { tenantParams } from './control-schemas.js';

const tags = ['Emulator control'];
const { 409: _conflict, ...ERRORS } = CONTROL_ERRORS;

const createUserSchema = z
  .strictObject({
    username: z.string().min(1).max(200),
    password: z.string().min(8).max(200).optional().meta({ description: 'Generated (and shown once) when left out.' }),
  })
  .meta({ id: 'EmulatorOAuthUserInput' });
const createdUserSchema = z.object({ username: z.string(), password: z.string() }).meta({ id: 'EmulatorOAuthUser' });

/** Users of the identity provider, for option B's password flow. */
export function controlUserRoutes(app: EmulatorApp, services: EmulatorServices): void {
  const { ctx } = services;
  const base = `${CONTROL_PREFIX}/tenants/{tenant}/oauth-users`;
  app.openapi(
    createRoute({
      method: 'post',
      operationId: 'controlCreateOAuthUser',
      security: CONTROL_SECURITY,
      path: base,
      tags,
      summary: 'Create an identity-provider user (option B password flow); a generated password is shown once',
      request: { params: tenantParams, body: jsonBody(createUserSchema, 'Username and optional password') },
      responses: { 201: json(createdUserSchema, 'The username and its password'), ...CONTROL_ERRORS },
    }),
    async (c) => c.json(await createUser(ctx, c.req.valid('param').tenant, c.req.valid('json')), 201),
  );
  app.openapi(
    createRoute({
      method: 'get',
      operationId: 'controlListOAuthUsers',
      security: CONTROL_SECURITY,
      path: base,
      tags,
      summary: 'List identity-provider users (never their passwords)',
      request: { params: tenantParams },
      responses: { 200: json(z.array(z.object({ username: z.string() })), 'Users'), ...ERRORS },
    }),
    (c) => c.json(listUsers(ctx, c.req.valid('param').tenant), 200),
  );
  app.openapi(
    createRoute({
      method: 'delete',
      operationId: 'controlDeleteOAuthUser',
      security: CONTROL_SECURITY,
      path: `${base}/{username}`,
      tags,
      summary: 'Delete an identity-provider user',
      request: { params: z.object({ tenant: z.string(), username: z.string() }) },
      responses: { 204: { description: 'Deleted' }, ...ERRORS },
    }),
    (c) => {
      const { tenant, username } = c.req.valid('param');
      deleteUser(ctx, tenant, username);
      return c.body(null, 204);
    },
  );
}
