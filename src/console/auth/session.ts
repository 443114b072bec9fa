import { hkdfSync, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../lib/clock.js';

export const SESSION_COOKIE = 'wms_console_session';
const ISSUER = 'wms-sync console';

export interface Session {
  /** Sent back by every form and htmx request of this session (synchronizer token). */
  csrf: string;
  /** Who signed in: the operator's name (ADMIN_TOKENS, "admin" for ADMIN_TOKEN) or OpenID e-mail. */
  operator: string;
  /** How: an admin token, or OpenID Connect. */
  via: SignInMethod;
  expiresAt: Date;
}

export type SignInMethod = 'token' | 'oidc';

/**
 * The key that signs console sessions, derived from the operators' tokens given in clear
 * (HKDF-SHA256): nothing more to configure, the tokens never leave the process, and rotating one
 * ends every session at once. With every token given as a hash there is nothing secret to derive
 * from: a random key of this process's own, so sessions end when it restarts.
 */
export function sessionKey(secret: string | undefined): Uint8Array {
  if (secret === undefined) return new Uint8Array(randomBytes(32));
  return new Uint8Array(hkdfSync('sha256', secret, '', 'wms-sync console session v1', 32));
}

/** A new session of `ttlSeconds`, as a signed token (HS256 JWT) to keep in an HttpOnly cookie. */
export async function issueSession(
  key: Uint8Array,
  clock: Clock,
  ttlSeconds: number,
  who: { operator: string; via: SignInMethod },
): Promise<{ token: string; session: Session }> {
  const now = Math.floor(clock.nowMs() / 1000);
  const csrf = randomBytes(24).toString('base64url');
  const token = await new SignJWT({ csrf, via: who.via })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(ISSUER)
    .setSubject(who.operator)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key);
  return {
    token,
    session: { csrf, operator: who.operator, via: who.via, expiresAt: new Date((now + ttlSeconds) * 1000) },
  };
}

/** The session a cookie holds, or undefined when it is missing, forged, signed with another key or expired. */
export async function readSession(
  key: Uint8Array,
  clock: Clock,
  token: string | undefined,
): Promise<Session | undefined> {
  if (!token) return undefined;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: ISSUER,
      currentDate: clock.now(),
    });
    const { csrf, exp, sub, via } = payload;
    if (typeof csrf !== 'string' || typeof exp !== 'number' || typeof sub !== 'string') return undefined;
    if (via !== 'token' && via !== 'oidc') return undefined;
    return { csrf, operator: sub, via, expiresAt: new Date(exp * 1000) };
  } catch {
    return undefined;
  }
}
