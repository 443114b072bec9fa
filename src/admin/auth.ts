import type { MiddlewareHandler } from 'hono';
import { authRefusal } from '../lib/auth-failures.js';
import { safeEqual } from '../lib/crypto.js';
import { unauthorized } from '../lib/errors.js';
import type { AppEnv } from '../lib/http.js';

const CHALLENGE = 'Bearer realm="wms-sync admin API"';

/**
 * `Authorization: Bearer <ADMIN_TOKEN>` on the operators' API. Compared in constant time; the
 * token is the whole secret, so a wrong one and a missing one get the same 401.
 */
export function adminAuth(token: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match)
      throw authRefusal(
        c,
        'admin',
        'bearer',
        unauthorized('Missing admin bearer token', { 'WWW-Authenticate': CHALLENGE }),
      );
    if (!safeEqual(match[1]!, token)) {
      throw authRefusal(
        c,
        'admin',
        'bearer',
        unauthorized('Invalid admin bearer token', { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` }),
      );
    }
    await next();
  };
}

/** True when the request presents the admin token (for routes that show more to operators, e.g. /readyz). */
export function presentsAdminToken(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? safeEqual(match[1]!, token) : false;
}
