import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { NamedToken } from '../lib/admin-tokens.js';
import { authRefusal } from '../lib/auth-failures.js';
import { safeEqual, sha256Hex } from '../lib/crypto.js';
import { unauthorized } from '../lib/errors.js';
import type { AppEnv } from '../lib/http.js';

const CHALLENGE = 'Bearer realm="wms-sync admin API"';

/**
 * Which operator a presented token belongs to, or undefined. The token is hashed and compared
 * with every operator's hash in constant time (no early exit), so neither timing nor the order of
 * ADMIN_TOKENS tells anything about the tokens.
 */
export function operatorMatcher(tokens: readonly NamedToken[]): (presented: string) => string | undefined {
  const known = tokens.map((t) => ({ name: t.name, digest: Buffer.from(t.sha256, 'hex') }));
  return (presented) => {
    const digest = Buffer.from(sha256Hex(presented), 'hex');
    let found: string | undefined;
    for (const k of known) if (timingSafeEqual(digest, k.digest) && found === undefined) found = k.name;
    return found;
  };
}

/**
 * `Authorization: Bearer <token>` on the operators' API: ADMIN_TOKEN (operator "admin") or an
 * operator's own (ADMIN_TOKENS). The operator's name goes on the request for the audit trail; a
 * wrong token and a missing one get the same 401.
 */
export function adminAuth(tokens: readonly NamedToken[]): MiddlewareHandler<AppEnv> {
  const match = operatorMatcher(tokens);
  return async (c, next) => {
    const header = c.req.header('authorization');
    const bearer = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!bearer)
      throw authRefusal(
        c,
        'admin',
        'bearer',
        unauthorized('Missing admin bearer token', { 'WWW-Authenticate': CHALLENGE }),
      );
    const operator = match(bearer[1]!);
    if (!operator) {
      throw authRefusal(
        c,
        'admin',
        'bearer',
        unauthorized('Invalid admin bearer token', { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` }),
      );
    }
    c.set('operator', operator);
    await next();
  };
}

/** True when the request presents an operator's token (for routes that show more to operators, e.g. /readyz). */
export function presentsAdminToken(header: string | undefined, tokens: readonly NamedToken[]): boolean {
  if (!header || tokens.length === 0) return false;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return bearer ? operatorMatcher(tokens)(bearer[1]!) !== undefined : false;
}

/** True when the header is `Bearer <token>` for this one token (constant time): /metrics's METRICS_TOKEN. */
export function presentsBearer(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header) return false;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return bearer ? safeEqual(bearer[1]!, token) : false;
}
