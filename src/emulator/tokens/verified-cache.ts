import type { KeyObject } from 'node:crypto';
import type { JWTPayload } from 'jose';

/** Tokens whose signature was checked lately, per signing key (most recent last). */
const verified = new WeakMap<KeyObject, Map<string, JWTPayload>>();

/** Enough for every client of a big test run; the oldest go first. */
const MAX_TOKENS = 10_000;

/**
 * The payload of a token whose signature and issuer this key already verified, else undefined.
 * A token is immutable: its signature need not be checked again (an HMAC through WebCrypto, about
 * a fifth of the emulator's CPU per API call). Its time claims, and everything about its client,
 * are still checked on every request by the caller.
 */
export function verifiedPayload(key: KeyObject, token: string): JWTPayload | undefined {
  return verified.get(key)?.get(token);
}

export function rememberVerified(key: KeyObject, token: string, payload: JWTPayload): void {
  let tokens = verified.get(key);
  if (!tokens) verified.set(key, (tokens = new Map()));
  if (tokens.size >= MAX_TOKENS) tokens.delete(tokens.keys().next().value!);
  tokens.set(token, payload);
}
