import type { ClientKind } from '../clients/find.js';

export const TOKEN_ISSUER = 'wms-sync-emulator';
export const API_CLIENT_AUDIENCE = 'wms-external-api';

/** Private claims: tenant, kind of credential, and the client's generation when issued. */
export interface AccessTokenClaims {
  sub: string;
  tid: string;
  knd: ClientKind;
  gen: number;
  /** The tenant's token epoch when issued (absent in tokens issued before epochs existed: 0). */
  ep?: number;
}

export function isAccessTokenClaims(
  payload: Record<string, unknown>,
): payload is Record<string, unknown> & AccessTokenClaims {
  return (
    typeof payload.sub === 'string' &&
    typeof payload.tid === 'string' &&
    (payload.knd === 'api' || payload.knd === 'oauth') &&
    typeof payload.gen === 'number' &&
    (payload.ep === undefined || typeof payload.ep === 'number')
  );
}
