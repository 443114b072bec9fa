import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { authRefusal } from '../../lib/auth-failures.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { CONSOLE, SIGN_IN } from '../nav.js';
import type { ConsoleApp } from '../page.js';
import { Notice } from '../ui/detail.js';
import { Bare } from '../ui/layout.js';
import { consoleNext } from './guard.js';
import { issueSession, SESSION_COOKIE } from './session.js';

export interface SignInDeps {
  /** Which operator a token belongs to (admin/auth.ts). */
  operatorOf: (token: string) => string | undefined;
  key: Uint8Array;
  clock: Clock;
  sessionHours: number;
  /** Cookies are Secure when the console is served over https (lib/https.ts). */
  secure: (c: Context) => boolean;
}

function SignInPage(props: { next: string | undefined; error?: string }) {
  return (
    <Bare title="Sign in" bodyClass="signin">
      <div class="signin-card">
        <h1>wms-sync console</h1>
        <div class="muted">Sign in with your admin token (ADMIN_TOKENS, or the service's ADMIN_TOKEN).</div>
        <form method="post" action={SIGN_IN}>
          {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
          {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
          <label class="field" for="token">
            Admin token
            <input id="token" name="token" type="password" autocomplete="current-password" required autofocus />
          </label>
          <button class="btn primary" type="submit">
            Sign in
          </button>
        </form>
        <p class="hint">
          <code>wms-sync start</code> prints it (and keeps it in <code>DATA_DIR/demo-connection.json</code>); on a
          server it is the <code>ADMIN_TOKEN</code> setting.
        </p>
      </div>
    </Bare>
  );
}

const page = (props: { next: string | undefined; error?: string }) =>
  `<!DOCTYPE html>${String(<SignInPage {...props} />)}`;

const WRONG_TOKEN = new AppError(401, 'unauthorized', 'That is not the admin token of this service.');

/**
 * GET/POST /console/sign-in. A wrong token is a failed authentication like any other
 * (lib/auth-failures.ts): counted in `wms_sync_auth_failures_total{area="console"}`, and answered
 * 429 once the client address (per TRUST_PROXY_HOPS) is over AUTH_FAILURE_LIMIT. The right token
 * is never refused, whatever others did from the same address.
 */
export function registerSignIn(app: ConsoleApp, deps: SignInDeps): void {
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
