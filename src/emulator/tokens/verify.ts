import type { KeyObject } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import { type ClientKind, findClient } from '../clients/find.js';
import type { EmulatorContext, Tenant } from '../context.js';
import { wmsError } from '../errors.js';
import { isAccessTokenClaims, TOKEN_ISSUER } from './claims.js';
import { rememberVerified, verifiedPayload } from './verified-cache.js';

export interface Principal {
  clientId: string;
  kind: ClientKind;
  tenant: Tenant;
}

/**
 * Checks a bearer token on every request: signature (once per token, then remembered), expiry
 * against the injected clock, then the client as it is now (exists, enabled, same generation), so revocation takes effect at once.
 * Throws the spec's 401.
 */
export async function verifyAccessToken(
  ctx: EmulatorContext,
  key: KeyObject,
  token: string,
  options: { apiClientTokensDisabled: boolean },
): Promise<Principal> {
  const now = ctx.clock.now();
  let payload = verifiedPayload(key, token);
  if (payload) {
    // What jwtVerify checks of the time claims, as it checks them (whole seconds, no tolerance).
    const seconds = Math.floor(now.getTime() / 1000);
    if (typeof payload.exp === 'number' && payload.exp <= seconds)
      throw wmsError.unauthorized('The access token expired');
    if (typeof payload.nbf === 'number' && payload.nbf > seconds)
      throw wmsError.unauthorized('The access token is invalid');
  } else {
    try {
      ({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: TOKEN_ISSUER, currentDate: now }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw wmsError.unauthorized('The access token expired');
      throw wmsError.unauthorized('The access token is invalid');
    }
    rememberVerified(key, token, payload);
  }
  if (!isAccessTokenClaims(payload)) throw wmsError.unauthorized('The access token is invalid');
  if (payload.knd === 'api' && options.apiClientTokensDisabled)
    throw wmsError.unauthorized('The access token is invalid');
  const client = findClient(ctx, payload.sub);
  if (!client || client.generation !== payload.gen || client.tenant.id !== payload.tid || client.kind !== payload.knd) {
    throw wmsError.unauthorized('The access token was revoked');
  }
  if ((payload.ep ?? 0) !== client.tokenEpoch) throw wmsError.unauthorized('The access token expired');
  if (!client.enabled) throw wmsError.unauthorized('The client is disabled');
  return { clientId: client.clientId, kind: client.kind, tenant: client.tenant };
}
