import { hkdfSync, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../lib/clock.js';

export const SESSION_COOKIE = 'wms_console_session';
const ISSUER = 'wms-sync console';

export interface Session {
  /** Sent back by every form and htmx request of this session (synchronizer token). */
  csrf: string;
  expiresAt: Date;
}

/**
 * The key that signs console sessions, derived from ADMIN_TOKEN (HKDF-SHA256): nothing more to
 * configure, the token never leaves the process, and rotating ADMIN_TOKEN ends every session at once.
 */
export function sessionKey(adminToken: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', adminToken, '', 'wms-sync console session v1', 32));
}

/** A new session of `ttlSeconds`, as a signed token (HS256 JWT) to keep in an HttpOnly cookie. */
export async function issueSession(
  key: Uint8Array,
  clock: Clock,
  ttlSeconds: number,
): Promise<{ token: string; session: Session }> {
  const now = Math.floor(clock.nowMs() / 1000);
  const csrf = randomBytes(24).toString('base64url');
  const token = await new SignJWT({ csrf })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(ISSUER)
    .setSubject('operator')
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key);
  return { token, session: { csrf, expiresAt: new Date((now + ttlSeconds) * 1000) } };
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
    if (typeof payload.csrf !== 'string' || typeof payload.exp !== 'number') return undefined;
    return { csrf: payload.csrf, expiresAt: new Date(payload.exp * 1000) };
  } catch {
    return undefined;
  }
}
