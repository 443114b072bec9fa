import type { ConnectionConfig } from '../lib/connections.js';
import { OAUTH_TOKEN_PATH, WMS_PATHS, tokenResponseSchema } from '../wms/index.js';
import { httpError, parseWith, readBody, send, type HttpOptions, type HttpRequest } from './http.js';

export interface FetchedToken {
  accessToken: string;
  expiresInSeconds: number;
}

/** Where a connection gets its bearer tokens: one network round trip per call. */
export type TokenSource = () => Promise<FetchedToken>;

/**
 * Option A (`client`): endpoint 21, client credentials in an x-www-form-urlencoded body.
 * Option B (`oauth2`): `{auth_url}/oauth/token`, JSON body with the audience and grant type.
 * Either way the secret is only ever in the request body.
 */
export function tokenSource(wms: ConnectionConfig['wms'], http: HttpOptions, nowMs: () => number): TokenSource {
  const req: HttpRequest =
    wms.authMode === 'oauth2'
      ? {
          operation: 'token (oauth2)',
          method: 'POST',
          url: `${wms.authUrl ?? ''}${OAUTH_TOKEN_PATH}`,
          path: OAUTH_TOKEN_PATH,
          json: { client_id: wms.clientId, client_secret: wms.clientSecret, audience: wms.audience, grant_type: 'client_credentials' },
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
