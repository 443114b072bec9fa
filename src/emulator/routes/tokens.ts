import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { issuesMessage } from '../../lib/zod-issues.js';
import {
  OAUTH_TOKEN_PATH,
  oauthTokenRequestSchema,
  tokenErrorSchema,
  tokenRequestSchema,
  tokenResponseSchema,
  WMS_PATHS,
} from '../../wms/index.js';
import { TokenEndpointError } from '../errors.js';
import type { EmulatorApp, EmulatorEnv, EmulatorServices } from '../http/env.js';
import { exchangeClientCredentials, exchangeOAuthCredentials } from '../tokens/exchange.js';
import { json, jsonBody } from './common.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';
const tags = ['Authentication'];

/** spec: "credentials are in the form body, never in the query string". */
const noQueryCredentials: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
  const query = new URL(c.req.url).searchParams;
  if (query.has('client_id') || query.has('client_secret')) {
    throw new TokenEndpointError(
      400,
      'invalid_request',
      'Client credentials must be sent in the request body, never in the query string',
    );
  }
  await next();
};

/** spec: "Content-Type application/x-www-form-urlencoded" (multipart is a form too, but not this one). */
const urlencodedOnly: MiddlewareHandler<EmulatorEnv> = async (c, next) => {
  const essence = (c.req.header('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (essence !== FORM_TYPE) {
    throw new TokenEndpointError(400, 'invalid_request', `Unsupported content type: expected ${FORM_TYPE}`);
  }
  await next();
};

const TOKEN_ERRORS = {
  400: json(tokenErrorSchema, 'Malformed request: wrong content type, credentials in the query string'),
  401: json(tokenErrorSchema, 'invalid_client: wrong, missing or disabled credentials'),
};

const apiClientToken = createRoute({
  method: 'post',
  path: WMS_PATHS.authToken,
  tags,
  operationId: 'issueToken',
  security: [],
  summary: '21. Obtain an access token with API client credentials (option A)',
  middleware: [noQueryCredentials, urlencodedOnly] as const,
  request: { body: { required: true, content: { [FORM_TYPE]: { schema: tokenRequestSchema } } } },
  responses: {
    200: json(tokenResponseSchema, 'A Bearer JWT valid 3600 seconds'),
    ...TOKEN_ERRORS,
    503: json(tokenErrorSchema, 'server_error: the token service is not configured (signing key missing)'),
  },
});

const oauthToken = createRoute({
  method: 'post',
  path: OAUTH_TOKEN_PATH,
  tags,
  operationId: 'issueOAuthToken',
  security: [],
  summary: 'Obtain an access token from the identity provider (option B, {auth_url}/oauth/token)',
  middleware: [noQueryCredentials] as const,
  request: {
    body: jsonBody(oauthTokenRequestSchema, 'Client credentials grant, or the password grant with scope openid'),
  },
  responses: {
    200: json(tokenResponseSchema, 'A Bearer JWT valid 86400 seconds'),
    ...TOKEN_ERRORS,
    403: json(
      tokenErrorSchema,
      'access_denied: the client is not enabled for this audience; invalid_grant: wrong username or password',
    ),
  },
});

export function tokenRoutes(app: EmulatorApp, services: EmulatorServices): void {
  app.openapi(apiClientToken, async (c) => {
    const token = await exchangeClientCredentials(services.ctx, services.tokens, c.req.valid('form'));
    return c.json(token, 200, { 'Cache-Control': 'no-store' });
  });
  app.openapi(
    oauthToken,
    async (c) => {
      const token = await exchangeOAuthCredentials(services.ctx, services.tokens, c.req.valid('json'));
      return c.json(token, 200, { 'Cache-Control': 'no-store' });
    },
    (result) => {
      if (result.success) return undefined;
      if (result.error.issues.some((i) => i.path[0] === 'grant_type')) {
        throw new TokenEndpointError(
          400,
          'unsupported_grant_type',
          'grant_type must be client_credentials or password',
        );
      }
      throw new TokenEndpointError(400, 'invalid_request', issuesMessage(result.error));
    },
  );
}
