import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { authRefusal } from '../../lib/auth-failures.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { CONSOLE, SIGN_IN } from '../nav.js';
import type { ConsoleApp } from '../page.js';
import { consoleNext } from './guard.js';
import { issueSession, SESSION_COOKIE } from './session.js';
import { type SignInProps, signInPage } from './sign-in-page.js';

export interface SignInDeps {
  /** Which operator a token belongs to (admin/auth.ts). */
  operatorOf: (token: string) => string | undefined;
  key: Uint8Array;
  clock: Clock;
  sessionHours: number;
  /** Cookies are Secure when the console is served over https (lib/https.ts). */
  secure: (c: Context) => boolean;
  /** OIDC_NAME when OpenID Connect sign-in is on: the form offers it beside the token. */
  oidc: string | undefined;
}

const WRONG_TOKEN = new AppError(401, 'unauthorized', 'That is not the admin token of this service.');

/**
 * GET/POST /console/sign-in. A wrong token is a failed authentication like any other
 * (lib/auth-failures.ts): counted in `wms_sync_auth_failures_total{area="console"}`, and answered
 * 429 once the client address (per TRUST_PROXY_HOPS) is over AUTH_FAILURE_LIMIT. The right token
 * is never refused, whatever others did from the same address.
 */
export function registerSignIn(app: ConsoleApp, deps: SignInDeps): void {
  const page = (props: Omit<SignInProps, 'oidc'>) => signInPage({ ...props, oidc: deps.oidc });
  app.get(SIGN_IN, (c) => c.html(page({ next: consoleNext(c.req.query('next')) })));

  app.post(SIGN_IN, async (c) => {
    const form = await c.req.parseBody();
    const next = consoleNext(form.next);
    const token = typeof form.token === 'string' ? form.token : '';
    const operator = deps.operatorOf(token);
    if (!operator) {
      const refusal = authRefusal(c, 'console', 'form', WRONG_TOKEN);
      c.get('log').warn({ status: refusal.status }, 'console sign-in refused: wrong admin token');
      if (refusal.status === 429)
        return c.html(
          page({
            next,
            error: `Too many wrong tokens from this address: try again in ${refusal.headers?.['Retry-After']} s.`,
          }),
          429,
          refusal.headers,
        );
      return c.html(page({ next, error: WRONG_TOKEN.message }), 401);
    }
    c.get('log').info({ operator }, 'console sign-in');
    const ttl = deps.sessionHours * 3600;
    const { token: jwt } = await issueSession(deps.key, deps.clock, ttl, { operator, via: 'token' });
    setCookie(c, SESSION_COOKIE, jwt, {
      path: CONSOLE,
      httpOnly: true,
      sameSite: 'Strict',
      secure: deps.secure(c),
      maxAge: ttl,
    });
    return c.redirect(next && !next.startsWith('/console/sign-') ? next : CONSOLE, 303);
  });
}

/**
 * POST /console/sign-out: registered behind the session guard, so it needs the session's CSRF
 * token like every other action (another site cannot sign an operator out).
 */
export function registerSignOut(app: ConsoleApp, deps: Pick<SignInDeps, 'secure'>): void {
  app.post(`${CONSOLE}/sign-out`, (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: CONSOLE, httpOnly: true, sameSite: 'Strict', secure: deps.secure(c) });
    return c.redirect(SIGN_IN, 303);
  });
}
