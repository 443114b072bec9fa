import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { Clock } from '../../lib/clock.js';
import { CONSOLE, SIGN_IN } from '../nav.js';
import type { ConsoleApp } from '../page.js';
import { Notice } from '../ui/detail.js';
import { Bare } from '../ui/layout.js';
import { signInHref } from './guard.js';
import { issueSession, SESSION_COOKIE } from './session.js';
import type { SignInThrottle } from './throttle.js';

export interface SignInDeps {
  /** Which operator a token belongs to (admin/auth.ts). */
  operatorOf: (token: string) => string | undefined;
  key: Uint8Array;
  clock: Clock;
  sessionHours: number;
  throttle: SignInThrottle;
  /** Cookies are Secure when the console is served over https (directly or per PUBLIC_URL). */
  secure: (c: Context) => boolean;
}

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
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

/** GET/POST /console/sign-in and POST /console/sign-out. */
export function registerSignIn(app: ConsoleApp, deps: SignInDeps): void {
  app.get(SIGN_IN, (c) => c.html(page({ next: c.req.query('next') })));

  app.post(SIGN_IN, async (c) => {
    const form = await c.req.parseBody();
    const next = typeof form.next === 'string' ? form.next : undefined;
    const address = clientAddress(c);
    const wait = deps.throttle.retryAfterSeconds(address);
    if (wait > 0)
      return c.html(page({ next, error: `Too many wrong tokens: try again in ${wait} s.` }), 429, {
        'retry-after': String(wait),
      });
    const token = typeof form.token === 'string' ? form.token : '';
    const operator = deps.operatorOf(token);
    if (!operator) {
      deps.throttle.fail(address);
      c.get('log').warn({ address }, 'console sign-in refused: wrong admin token');
      return c.html(page({ next, error: 'That is not an admin token of this service.' }), 401);
    }
    deps.throttle.succeed(address);
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
    const to = signInHref(next) === SIGN_IN ? CONSOLE : next!;
    return c.redirect(to, 303);
  });

  app.post(`${CONSOLE}/sign-out`, (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: CONSOLE, httpOnly: true, sameSite: 'Strict', secure: deps.secure(c) });
    return c.redirect(SIGN_IN, 303);
  });
}
