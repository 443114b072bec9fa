import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Clock } from '../../lib/clock.js';
import { CONSOLE } from '../nav.js';
import type { ConsoleApp } from '../page.js';
import { consoleNext } from './guard.js';
import { type OidcClient, OidcRefused, OidcUnavailable } from './oidc-client.js';
import { admit, type OidcRules } from './oidc-rules.js';
import { openTransaction, sealTransaction, TRANSACTION_COOKIE, TRANSACTION_SECONDS } from './oidc-transaction.js';
import { issueSession, SESSION_COOKIE } from './session.js';
import { OIDC_CALLBACK, OIDC_START, refusedPage, signedInPage, signInPage } from './sign-in-page.js';

export interface OidcSignInDeps {
  client: OidcClient;
  rules: OidcRules;
  /** Seals the transaction cookie (oidc-transaction.ts). */
  transactionKey: Uint8Array;
  /** Signs the session, as token sign-in does. */
  sessionKey: Uint8Array;
  clock: Clock;
  sessionHours: number;
  /** PUBLIC_URL: the origin the provider sends the browser back to; the request's own without it. */
  publicUrl: string | undefined;
  secure: (c: Context) => boolean;
}

/**
 * GET /console/sign-in/oidc and its callback: the authorization code flow with PKCE, state and
 * nonce. The transaction cookie is SameSite=Lax, as it must come back on the provider's
 * cross-site redirect; the session it ends in is the token sign-in's (SameSite=Strict), reached
 * through a page of this site so that the browser sends it on the very next request.
 */
export function registerOidcSignIn(app: ConsoleApp, deps: OidcSignInDeps): void {
  const redirectUri = (c: Context) => `${deps.publicUrl ?? new URL(c.req.url).origin}${OIDC_CALLBACK}`;

  app.get(OIDC_START, async (c) => {
    const next = consoleNext(c.req.query('next'));
    let started: Awaited<ReturnType<OidcClient['start']>>;
    try {
      started = await deps.client.start(redirectUri(c), next);
    } catch (err) {
      if (!(err instanceof OidcUnavailable)) throw err;
      return c.html(
        signInPage({
          next,
          oidc: deps.client.name,
          error: `${deps.client.name} cannot be reached right now: sign in with your admin token, or try again later.`,
        }),
        503,
      );
    }
    setCookie(c, TRANSACTION_COOKIE, await sealTransaction(deps.transactionKey, deps.clock, started.transaction), {
      path: OIDC_CALLBACK,
      httpOnly: true,
      sameSite: 'Lax',
      secure: deps.secure(c),
      maxAge: TRANSACTION_SECONDS,
    });
    return c.redirect(started.url.href, 303);
  });

  app.get(OIDC_CALLBACK, async (c) => {
    const log = c.get('log');
    const transaction = await openTransaction(deps.transactionKey, deps.clock, getCookie(c, TRANSACTION_COOKIE));
    // One transaction, one answer: whatever happens next, this browser starts over for another.
    deleteCookie(c, TRANSACTION_COOKIE, {
      path: OIDC_CALLBACK,
      httpOnly: true,
      sameSite: 'Lax',
      secure: deps.secure(c),
    });
    const refuse = (status: 400 | 403, title: string, message: string, retry = true) =>
      c.html(refusedPage({ title, message, retry }), status);
    if (!transaction) {
      log.warn('console OpenID sign-in refused: no sign-in was started in this browser, or it expired');
      return refuse(
        400,
        'Sign-in not completed',
        `This answer from ${deps.client.name} does not match a sign-in started in this browser in the last ${TRANSACTION_SECONDS / 60} minutes: start again.`,
      );
    }
    const callback = new URL(`${redirectUri(c)}${new URL(c.req.url).search}`);
    let claims: Record<string, unknown>;
    try {
      claims = await deps.client.finish(callback, transaction);
    } catch (err) {
      if (err instanceof OidcUnavailable)
        return refuse(
          400,
          'Sign-in not completed',
          `${deps.client.name} cannot be reached right now: try again later.`,
          false,
        );
      if (!(err instanceof OidcRefused)) throw err;
      log.warn({ reason: err.reason }, 'console OpenID sign-in refused');
      return refuse(400, 'Sign-in not completed', `Sign-in with ${deps.client.name} failed: ${err.reason}.`);
    }
    const admission = admit(claims, deps.rules);
    if (!admission.allowed) {
      log.warn({ operator: admission.who, reason: admission.reason }, 'console OpenID sign-in refused: not allowed');
      return refuse(
        403,
        'Not allowed here',
        `${admission.who} signed in at ${deps.client.name}, but may not use this console: ${admission.reason}. Ask an administrator of wms-sync.`,
        false,
      );
    }
    const operator = admission.operator;
    log.info({ operator, via: 'oidc' }, 'console sign-in');
    const ttl = deps.sessionHours * 3600;
    const { token } = await issueSession(deps.sessionKey, deps.clock, ttl, { operator, via: 'oidc' });
    setCookie(c, SESSION_COOKIE, token, {
      path: CONSOLE,
      httpOnly: true,
      sameSite: 'Strict',
      secure: deps.secure(c),
      maxAge: ttl,
    });
    const next = consoleNext(transaction.next);
    return c.html(signedInPage({ operator, to: next && !next.startsWith(`${CONSOLE}/sign-`) ? next : CONSOLE }));
  });
}
