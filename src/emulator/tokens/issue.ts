import { type KeyObject, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  API_CLIENT_TOKEN_LIFETIME_SECONDS,
  OAUTH2_TOKEN_LIFETIME_SECONDS,
  type TokenResponse,
} from '../../wms/index.js';
import type { ClientRecord } from '../clients/find.js';
import type { EmulatorContext } from '../context.js';
import { API_CLIENT_AUDIENCE, TOKEN_ISSUER } from './claims.js';

/** A signed access token for an authenticated client: 1 h for API clients, 24 h for OAuth2. */
export async function issueToken(ctx: EmulatorContext, key: KeyObject, client: ClientRecord): Promise<TokenResponse> {
  const lifetime = client.kind === 'api' ? API_CLIENT_TOKEN_LIFETIME_SECONDS : OAUTH2_TOKEN_LIFETIME_SECONDS;
  const now = Math.floor(ctx.clock.nowMs() / 1000);
  const accessToken = await new SignJWT({
    tid: client.tenant.id,
    knd: client.kind,
    gen: client.generation,
    ep: client.tokenEpoch,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(client.kind === 'api' ? API_CLIENT_AUDIENCE : (client.audience ?? API_CLIENT_AUDIENCE))
    .setSubject(client.clientId)
    .setJti(randomBytes(12).toString('base64url'))
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime)
    .sign(key);
  return { access_token: accessToken, token_type: 'Bearer', expires_in: lifetime };
}
