import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { auditTrail } from '../admin/audit-trail.js';
import { operatorMatcher } from '../admin/auth.js';
import type { ServiceDeps } from '../deps.js';
import { AppError } from '../lib/errors.js';
import { servedOverHttps } from '../lib/https.js';
import { allowedMethods } from './allowed-methods.js';
import { registerAssets } from './assets.js';
import { requireSession, sameOrigin } from './auth/guard.js';
import { oidcClient } from './auth/oidc-client.js';
import { registerOidcSignIn } from './auth/oidc-routes.js';
import { transactionKey } from './auth/oidc-transaction.js';
import { registerSignIn, registerSignOut } from './auth/routes.js';
import { sessionKey } from './auth/session.js';
import type { ConsoleDeps, ConsoleEnv, ConsoleOptions } from './env.js';
import { ASSETS, CONSOLE, NAV, type NavId, pageHref, SIGN_IN } from './nav.js';
import type { ConsoleContext } from './page.js';
import { errorPage } from './pages/errors.js';
import { PAGES } from './pages/index.js';

/**
 * No script, style, frame or form target from anywhere but the console itself; no framing of the
 * console by another site. Pages are never cached (they hold operational data).
 */
const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.header(
    'content-security-policy',
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  );
  c.header('x-content-type-options', 'nosniff');
  c.header('referrer-policy', 'same-origin');
  if (!c.req.path.startsWith(`${ASSETS}/`)) c.header('cache-control', 'no-store');
};

/**
 * The operator console under /console: server-rendered pages (Hono JSX) over the admin API's
 * functions, behind a session opened with an operator's token. With no operator token it does not
 * exist (the service's plain 404), like the admin API.
 */
export function consoleRoutes(service: ServiceDeps, options: ConsoleOptions = {}): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  const { tokens, sessionSecret } = service.config.admin;
  if (tokens.length === 0) {
    // `wms-sync start` makes a token of its own; `serve` without one has no console to sign in to.
    if (service.config.oidc)
      service.logger.warn('OIDC_ISSUER is set but the console is off: it needs ADMIN_TOKEN or ADMIN_TOKENS');
    return app;
  }
  const deps: ConsoleDeps = { ...service, emulator: options.emulator };
  const key = sessionKey(sessionSecret);
  const https = (c: Context) =>
    servedOverHttps(c, service.config.publicUrl, service.config.authFailures.trustProxyHops);
  const markHttps: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
    c.set('https', https(c));
    await next();
  };

  app.use(`${CONSOLE}/*`, securityHeaders, markHttps);
  app.use(CONSOLE, securityHeaders, markHttps);
  app.use(`${CONSOLE}/*`, sameOrigin(service.config.publicUrl));
  registerAssets(app);
  registerSignIn(app, {
    operatorOf: operatorMatcher(tokens),
    key,
    clock: service.clock,
    sessionHours: service.config.admin.sessionHours,
    secure: https,
    oidc: service.config.oidc?.name,
  });
  if (service.config.oidc) {
    const client = oidcClient(service.config.oidc, service.logger);
    void client.warm();
    registerOidcSignIn(app, {
      client,
      rules: service.config.oidc,
      transactionKey: transactionKey(key),
      sessionKey: key,
      clock: service.clock,
      sessionHours: service.config.admin.sessionHours,
      publicUrl: service.config.publicUrl,
      secure: https,
    });
  }
  const guard = requireSession(key, service.clock);
  app.use(CONSOLE, guard);
  app.use(`${CONSOLE}/*`, (c, next) =>
    c.req.path === SIGN_IN || c.req.path.startsWith(`${SIGN_IN}/`) || c.req.path.startsWith(`${ASSETS}/`)
      ? next()
      : guard(c, next),
  );
  app.use(
    `${CONSOLE}/*`,
    auditTrail({
      store: service.store,
      clock: service.clock,
      channel: 'console',
      prefix: CONSOLE,
      operator: (c) => (c as ConsoleContext).get('session')?.operator,
      // A check of an edit and signing in or out change nothing an operator answers for.
      skip: (c) => c.req.path.endsWith('/check') || c.req.path.startsWith(`${CONSOLE}/sign-`),
      outcome: (c) => {
        const flash = (c as ConsoleContext).get('flash');
        return flash ? { outcome: flash.tone === 'bad' ? 'refused' : 'ok', detail: flash.message } : undefined;
      },
    }),
  );
  registerSignOut(app, { secure: https });

  // The first connection's overview; the connection switcher keeps the page when it changes connection.
  app.get(CONSOLE, (c) => {
    const first = deps.connections.all()[0];
    return first
      ? c.redirect(pageHref(first.name, 'overview'), 303)
      : errorPage(
          c,
          deps,
          404,
          'No connection',
          'This service has no connection configured: set WMS_* and WEBHOOK_* (or CONNECTIONS_FILE).',
        );
  });
  app.get(`${CONSOLE}/`, (c) => c.redirect(CONSOLE, 301));
  app.get(`${CONSOLE}/go`, (c) => {
    const name = c.req.query('connection') ?? '';
    if (!deps.connections.get(name)) return errorPage(c, deps, 404, 'Not found', `No connection "${name}"`);
    const page = NAV.find((n) => n.id === c.req.query('page'))?.id ?? 'overview';
    return c.redirect(pageHref(name, page as NavId), 303);
  });

  for (const register of PAGES) register(app, deps);

  // Every other method or path: 405 with Allow, or 404; the page frame only inside a session.
  app.all(`${CONSOLE}/*`, (c) => {
    const allowed = allowedMethods(app.routes, c.req.path);
    if (allowed.length > 0 && !allowed.includes(c.req.method))
      return c.text(`Method ${c.req.method} not allowed here`, 405, { allow: allowed.join(', ') });
    if (!c.get('session')) return c.text('Not found', 404);
    return errorPage(c, deps, 404, 'Not found', `No console page ${c.req.path}`);
  });
  app.onError((err, c) => {
    if (err instanceof AppError && (err.status === 404 || err.status === 400 || err.status === 409))
      return errorPage(c, deps, err.status, err.status === 404 ? 'Not found' : 'Refused', err.message);
    throw err;
  });
  return app;
}
