import type { KeyObject } from 'node:crypto';
import {
  OAUTH_PASSWORD_SCOPE,
  type OAuthTokenRequest,
  type TokenRequest,
  type TokenResponse,
} from '../../wms/index.js';
import { type ClientKind, type ClientRecord, findClient } from '../clients/find.js';
import { secretMatches } from '../clients/secrets.js';
import type { EmulatorContext } from '../context.js';
import { TokenEndpointError } from '../errors.js';
import { userMatches } from '../users/users.js';
import { issueToken } from './issue.js';

// Compared against when the client id is unknown, so that case costs the same as a wrong secret.
const DUMMY = { salt: '0'.repeat(32), hash: '0'.repeat(64) };

function authenticate(ctx: EmulatorContext, kind: ClientKind, clientId: string, secret: string): ClientRecord {
  const client = findClient(ctx, clientId);
  const matches = secretMatches(secret, client?.secretSalt ?? DUMMY.salt, client?.secretHash ?? DUMMY.hash);
  if (!client || !matches || client.kind !== kind) {
    throw new TokenEndpointError(401, 'invalid_client', 'Invalid client credentials');
  }
  if (!client.enabled) throw new TokenEndpointError(401, 'invalid_client', 'The client is disabled');
  return client;
}

export interface TokenServiceOptions {
  key: KeyObject;
  /** The spec's "token service not configured (server-side signing key missing)": endpoint 21 answers 503. */
  apiClientTokensDisabled: boolean;
}

/** Endpoint 21 (option A): API client credentials from the form body. */
export async function exchangeClientCredentials(
  ctx: EmulatorContext,
  options: TokenServiceOptions,
  input: TokenRequest,
): Promise<TokenResponse> {
  if (options.apiClientTokensDisabled) {
    throw new TokenEndpointError(
      503,
      'server_error',
      'The token service is not configured: the signing key is missing',
    );
  }
  return issueToken(ctx, options.key, authenticate(ctx, 'api', input.client_id, input.client_secret));
}

/**
 * POST {auth_url}/oauth/token (option B): operator-provisioned client credentials for one audience,
 * either alone (client_credentials) or with a user of the client's tenant (password, the flow the
 * spec declares, scope `openid`). Wrong user credentials answer 403 `invalid_grant`, as the
 * identity providers with this API shape (audience, JSON body) do.
 */
export async function exchangeOAuthCredentials(
  ctx: EmulatorContext,
  options: TokenServiceOptions,
  input: OAuthTokenRequest,
): Promise<TokenResponse> {
  const client = authenticate(ctx, 'oauth', input.client_id, input.client_secret);
  if (client.audience !== input.audience) {
    throw new TokenEndpointError(403, 'access_denied', `Service not enabled for audience "${input.audience}"`);
  }
  if (input.grant_type === 'password') {
    if (!input.scope.split(' ').includes(OAUTH_PASSWORD_SCOPE)) {
      throw new TokenEndpointError(400, 'invalid_scope', `The password flow needs the scope "${OAUTH_PASSWORD_SCOPE}"`);
    }
    if (!(await userMatches(ctx, client.tenant.id, input.username, input.password))) {
      throw new TokenEndpointError(403, 'invalid_grant', 'Wrong username or password.');
    }
  }
  return issueToken(ctx, options.key, client);
}
