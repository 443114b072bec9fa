import { randomBytes } from 'node:crypto';
import { safeEqual, sha256Hex } from '../../lib/crypto.js';

/**
 * Client secrets are 256 random bits, so a salted SHA-256 is enough to store them (a slow KDF
 * protects guessable human passwords and would cap token issuance far below what is needed).
 */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function newClientId(prefix: 'ac' | 'oc'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export function hashSecret(secret: string): { salt: string; hash: string } {
  const salt = randomBytes(16).toString('hex');
  return { salt, hash: sha256Hex(`${salt}:${secret}`) };
}

export function secretMatches(secret: string, salt: string, hash: string): boolean {
  return safeEqual(sha256Hex(`${salt}:${secret}`), hash);
}
