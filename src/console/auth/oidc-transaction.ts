import { hkdfSync } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type { Clock } from '../../lib/clock.js';

/** What the callback must find again: the values the sign-in was started with, and where to go after. */
export interface OidcTransaction {
  state: string;
  nonce: string;
  /** PKCE's code_verifier: kept from the browser's eyes too (the cookie is encrypted, not only signed). */
  verifier: string;
  next: string | undefined;
}

export const TRANSACTION_COOKIE = 'wms_console_oidc';
/** How long an operator may take at the provider's pages. */
export const TRANSACTION_SECONDS = 600;
const PURPOSE = 'wms-sync console oidc transaction';

/** The key that seals transactions, derived from the session key (a key is never used for two jobs). */
export function transactionKey(sessionKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', sessionKey, '', PURPOSE, 32));
}

export async function sealTransaction(key: Uint8Array, clock: Clock, t: OidcTransaction): Promise<string> {
  const now = Math.floor(clock.nowMs() / 1000);
  return new EncryptJWT({ ...t })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setAudience(PURPOSE)
    .setIssuedAt(now)
    .setExpirationTime(now + TRANSACTION_SECONDS)
    .encrypt(key);
}

/** The transaction a cookie holds; undefined when missing, forged, sealed with another key or expired. */
export async function openTransaction(
  key: Uint8Array,
  clock: Clock,
  sealed: string | undefined,
): Promise<OidcTransaction | undefined> {
  if (!sealed) return undefined;
  try {
    const { payload } = await jwtDecrypt(sealed, key, { audience: PURPOSE, currentDate: clock.now() });
    const { state, nonce, verifier, next } = payload;
    if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string') return undefined;
    return { state, nonce, verifier, next: typeof next === 'string' ? next : undefined };
  } catch {
    return undefined;
  }
}
