import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import type { Clock } from '../../lib/clock.js';
import { safeEqual } from '../../lib/crypto.js';
import type { ConsoleEnv } from '../env.js';
import { SIGN_IN } from '../nav.js';
import { readSession, SESSION_COOKIE } from './session.js';

const SAFE = /^(GET|HEAD)$/;

/**
 * Cross-site requests are refused before anything else: a state-changing request must come from
 * a page of the console's own origin (Origin or Sec-Fetch-Site, hono/csrf). Behind a proxy that
 * rewrites the host, PUBLIC_URL names the origin browsers use.
 */
export function sameOrigin(publicUrl: string | undefined): MiddlewareHandler {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  return csrf({ origin: (origin, c) => origin === new URL(c.req.url).origin || origin === publicOrigin });
}

/**
 * `next` when it is a console path to go back to: on this site (never `//host` or `/\host`), and
 * printable ASCII only (a control character or a raw non-ASCII one cannot be put in a Location
 * header); anything else is dropped.
 */
export function consoleNext(next: unknown): string | undefined {
  return typeof next === 'string' && /^\/console\/[^/\\]/.test(next) && /^[\x21-\x7e]*$/.test(next) ? next : undefined;
}

/** Where a signed-out request is sent: only console paths (never another site). */
export function signInHref(next: string | undefined): string {
  const to = consoleNext(next);
  return to && !to.startsWith('/console/sign-') ? `${SIGN_IN}?next=${encodeURIComponent(to)}` : SIGN_IN;
}

/**
 * Every console page and action needs a session: a page asks to sign in (303 to the sign-in
 * page), an htmx fragment answers 401 with HX-Redirect, an action 401. A state-changing request
 * must also carry the session's CSRF token (form field `_csrf` or header X-CSRF-Token): the
 * cookie alone, which a browser attaches by itself, is never enough.
 */
export function requireSession(key: Uint8Array, clock: Clock): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const session = await readSession(key, clock, getCookie(c, SESSION_COOKIE));
    if (!session) {
      if (c.req.header('hx-request')) {
        // A fragment's own URL is no place to come back to: the page that asked for it is.
        const current = c.req.header('hx-current-url');
        const page = current && URL.canParse(current) ? new URL(current) : undefined;
        return c.body(null, 401, { 'hx-redirect': signInHref(page ? page.pathname + page.search : undefined) });
      }
      const to = signInHref(SAFE.test(c.req.method) ? c.req.path + (new URL(c.req.url).search || '') : undefined);
      if (SAFE.test(c.req.method)) return c.redirect(to, 303);
      return c.text('Your console session has ended: sign in again.', 401);
    }
    if (!SAFE.test(c.req.method)) {
      let token = c.req.header('x-csrf-token');
      if (
        !token &&
        /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(c.req.header('content-type') ?? '')
      ) {
        const field = (await c.req.parseBody())._csrf;
        token = typeof field === 'string' ? field : undefined;
      }
      if (!token || !safeEqual(token, session.csrf))
        return c.text('Forbidden: this request does not carry the token of your console session.', 403);
    }
    c.set('session', session);
    await next();
  };
}
