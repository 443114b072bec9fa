import type { ConnectionConfig } from '../lib/connections.js';
import {
  OAUTH_PASSWORD_SCOPE,
  OAUTH_TOKEN_PATH,
  type OAuthTokenRequest,
  tokenResponseSchema,
  WMS_PATHS,
} from '../wms/index.js';
import { type HttpOptions, type HttpRequest, httpError, parseWith, readBody, send } from './http.js';

export interface FetchedToken {
  accessToken: string;
  expiresInSeconds: number;
}

/** Where a connection gets its bearer tokens: one network round trip per call. */
export type TokenSource = () => Promise<FetchedToken>;

/**
 * Option A (`client`): endpoint 21, client credentials in an x-www-form-urlencoded body.
 * Option B (`oauth2`): `{auth_url}/oauth/token`, JSON body with the audience and grant type:
 * `client_credentials`, or `password` (the flow the spec declares) with the user and scope openid.
 * Either way the secret and the password are only ever in the request body.
 */
export function tokenSource(wms: ConnectionConfig['wms'], http: HttpOptions, nowMs: () => number): TokenSource {
  const req: HttpRequest =
    wms.authMode === 'oauth2'
      ? {
          operation: wms.authGrant === 'password' ? 'token (oauth2 password)' : 'token (oauth2)',
          method: 'POST',
          url: `${wms.authUrl ?? ''}${OAUTH_TOKEN_PATH}`,
          path: OAUTH_TOKEN_PATH,
          json: oauthBody(wms),
        }
      : {
          operation: 'token',
          method: 'POST',
          url: `${wms.baseUrl}${WMS_PATHS.authToken}`,
          path: WMS_PATHS.authToken,
          form: new URLSearchParams({ client_id: wms.clientId, client_secret: wms.clientSecret }),
        };
  if (wms.authMode === 'oauth2' && !wms.authUrl) throw new Error('oauth2 connection without an auth URL');
  return async () => {
    const response = await send(req, http);
    if (!response.ok) throw await httpError(req, response, nowMs());
    const token = parseWith(req, response.status, await readBody(response), tokenResponseSchema);
    return { accessToken: token.access_token, expiresInSeconds: token.expires_in };
  };
}

function oauthBody(wms: ConnectionConfig['wms']): OAuthTokenRequest {
  const client = { client_id: wms.clientId, client_secret: wms.clientSecret, audience: wms.audience ?? '' };
  if (wms.authGrant !== 'password') return { ...client, grant_type: 'client_credentials' };
  if (!wms.username || !wms.password) throw new Error('password grant without a username and password');
  return {
    ...client,
    grant_type: 'password',
    username: wms.username,
    password: wms.password,
    scope: OAUTH_PASSWORD_SCOPE,
  };
}
