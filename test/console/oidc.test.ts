import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { signInAtProvider, startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, get, ORIGIN, post, sessionCookie, signInAs } from './support.js';

const CALLBACK = '/console/sign-in/oidc/callback';
const overview = '/console/connections/acme/overview';

/**
 * OpenID Connect sign-in against a real provider (node-oidc-provider on a loopback port), the
 * browser's part played by fetch with manual redirects: the service's side through app.request(),
 * the provider's through its own login and consent pages.
 */
describe('console sign-in with OpenID Connect', () => {
  let provider: TestProvider;
  let svc: TestService;
  let down: TestService;
  let off: TestService;
  const logs: string[] = [];
  const downLogs: string[] = [];

  beforeAll(async () => {
    provider = await startTestProvider({
      alice: { email: 'alice@example.com', email_verified: true, groups: ['ops', 'staff'] },
      mallory: { email: 'mallory@example.org', email_verified: true, groups: ['ops'] },
      bob: { email: 'bob@example.com', email_verified: true, groups: ['sales'] },
      eve: { email: 'eve@example.com', email_verified: false, groups: ['ops'] },
    });
    // app.request() answers as http://localhost: the redirect URL the service sends is built from it.
    await provider.register(`${ORIGIN}${CALLBACK}`);
    const oidcEnv = {
      ADMIN_TOKEN,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_ALLOWED_DOMAINS: 'example.com',
      OIDC_ALLOWED_GROUPS: 'ops',
      OIDC_NAME: 'Acme SSO',
      OIDC_SCOPES: 'openid email profile groups',
    };
    svc = await startTestService({
      label: 'console-oidc',
      env: oidcEnv,
      connections: [testConnection('acme')],
      logger: createLogger({ level: 'debug', destination: { write: (line: string) => void logs.push(line) } }),
    });
    // A provider nobody answers at: port 9 (discard) refuses on this machine.
    down = await startTestService({
      label: 'console-oidc-down',
      env: { ...oidcEnv, OIDC_ISSUER: 'http://127.0.0.1:9' },
      connections: [testConnection('acme')],
      logger: createLogger({ level: 'debug', destination: { write: (line: string) => void downLogs.push(line) } }),
    });
    off = await startTestService({
      label: 'console-oidc-off',
      env: { ADMIN_TOKEN },
      connections: [testConnection('acme')],
    });
  });
  afterAll(async () => {
    await svc?.close();
    await down?.close();
    await off?.close();
    await provider?.close();
  });

  /** Starts a sign-in at the service: the provider's authorization URL and the transaction cookie. */
  async function start(next?: string) {
    const res = await get(svc, `/console/sign-in/oidc${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    expect(res.status).toBe(303);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('wms_console_oidc='))!;
    return { authorization: new URL(res.headers.get('location')!), cookie: set.split(';')[0]!, set };
  }
  const callback = (url: URL, cookie?: string) =>
    svc.app.request(`${url.pathname}${url.search}`, { headers: cookie ? { cookie } : {} });

  it('the sign-in page offers "Sign in with Acme SSO" beside the token form; without OIDC_ISSUER there is no such page', async () => {
    const page = await (await get(svc, '/console/sign-in?next=%2Fconsole%2Fconnections%2Facme%2Faudit')).text();
    expect(page).toContain('Sign in with Acme SSO');
    expect(page).toContain('href="/console/sign-in/oidc?next=%2Fconsole%2Fconnections%2Facme%2Faudit"');
    expect(page).toContain('name="token"');
    const plain = await (await get(off, '/console/sign-in')).text();
    expect(plain).not.toContain('/console/sign-in/oidc');
    expect((await get(off, '/console/sign-in/oidc')).status).toBe(404);
    expect((await get(off, CALLBACK)).status).toBe(404);
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce; the transaction cookie is encrypted, HttpOnly, SameSite=Lax, for the callback only', async () => {
    const { authorization, set } = await start();
    expect(authorization.origin).toBe(provider.issuer);
    const q = authorization.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(provider.clientId);
    expect(q.get('redirect_uri')).toBe(`${ORIGIN}${CALLBACK}`);
    expect(q.get('scope')).toBe('openid email profile groups');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(set).toMatch(/; Path=\/console\/sign-in\/oidc\/callback/);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Lax/);
    // Five dot-separated parts: a JWE, so neither the state nor the PKCE verifier can be read from it.
    expect(set.split(';')[0]!.split('=')[1]!.split('.')).toHaveLength(5);
    expect(set).not.toContain(q.get('state')!);
  });

  it('signs alice in: the same console session as a token (Strict), her e-mail in the top bar, her actions in the audit trail by name', async () => {
    const { authorization, cookie } = await start('/console/connections/acme/audit');
    const back = await signInAtProvider(authorization.href, 'alice');
    expect(back.pathname).toBe(CALLBACK);
    const res = await callback(back, cookie);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('Signed in as <strong>alice@example.com</strong>');
    // The page moves on by itself: a navigation of this site's own, so the Strict cookie goes with it.
    expect(page).toContain('<meta http-equiv="refresh" content="0;url=/console/connections/acme/audit"/>');
    const set = res.headers.getSetCookie().find((c) => c.startsWith('wms_console_session='))!;
    expect(set).toMatch(/; SameSite=Strict/);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; Path=\/console/);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('wms_console_oidc='))).toMatch(/Max-Age=0/);

    const session = sessionCookie(res)!;
    const overviewPage = await (await get(svc, overview, { cookie: session, csrf: '' })).text();
    expect(overviewPage).toContain('Signed in as <strong>alice@example.com</strong>');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(overviewPage)![1]!;
    const run = await post(svc, '/console/connections/acme/reconciliations', { cookie: session, csrf });
    expect(run.status).toBe(303);
    const [entry] = await svc.deps.store.audit.list({ limit: 1 });
    expect(entry).toMatchObject({ operator: 'alice@example.com', action: 'reconciliation.start' });
    const line = logs.find((l) => l.includes('"console sign-in"'));
    expect(JSON.parse(line!)).toMatchObject({ operator: 'alice@example.com', via: 'oidc' });
  });

  it('refuses mallory, whose e-mail domain is not allowed, with a clear page and no session', async () => {
    const { authorization, cookie } = await start();
    const res = await callback(await signInAtProvider(authorization.href, 'mallory'), cookie);
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain('Not allowed here');
    expect(page).toContain('mallory@example.org signed in at Acme SSO, but may not use this console');
    expect(page).toContain('e-mail addresses at example.org may not sign in here');
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('refuses bob, of an allowed domain but not in an allowed group, and eve, whose e-mail is not verified', async () => {
    let { authorization, cookie } = await start();
    const bob = await callback(await signInAtProvider(authorization.href, 'bob'), cookie);
    expect(bob.status).toBe(403);
    expect(await bob.text()).toContain('none of this account&#39;s groups may sign in here');
    expect(sessionCookie(bob)).toBeUndefined();
    ({ authorization, cookie } = await start());
    const eve = await callback(await signInAtProvider(authorization.href, 'eve'), cookie);
    expect(eve.status).toBe(403);
    expect(await eve.text()).toContain('the provider has not verified the address eve@example.com');
    expect(sessionCookie(eve)).toBeUndefined();
  });

  it('refuses an answer whose state is not the one this browser started with (a forged or crossed callback)', async () => {
    const { authorization, cookie } = await start();
    const back = await signInAtProvider(authorization.href, 'alice');
    back.searchParams.set('state', 'not-the-state-this-browser-started-with');
    const res = await callback(back, cookie);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('this answer does not belong to the sign-in this browser started (state)');
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('refuses a replayed code: the provider serves a code once, even with the transaction cookie captured', async () => {
    const { authorization, cookie } = await start();
    const back = await signInAtProvider(authorization.href, 'alice');
    const first = await callback(back, cookie);
    expect(first.status).toBe(200);
    expect(sessionCookie(first)).toBeDefined();
    const replay = await callback(back, cookie);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('the provider refused the code (invalid_grant');
    expect(sessionCookie(replay)).toBeUndefined();
    // And without the cookie (another browser): refused before the provider is asked.
    const elsewhere = await callback(back);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('does not match a sign-in started in this browser');
    expect(sessionCookie(elsewhere)).toBeUndefined();
  });

  it('an error the provider sends back (the operator cancelled) is said on the page', async () => {
    const { authorization, cookie } = await start();
    const back = new URL(`${ORIGIN}${CALLBACK}`);
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'End-User aborted interaction');
    back.searchParams.set('state', authorization.searchParams.get('state')!);
    back.searchParams.set('iss', provider.issuer);
    const res = await callback(back, cookie);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('the provider answered access_denied: End-User aborted interaction');
  });

  it('a provider that cannot be reached does not stop the service: logged, the button answers 503, the token still signs in', async () => {
    const page = await get(down, '/console/sign-in/oidc');
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('Acme SSO cannot be reached right now: sign in with your admin token');
    const operator = await signInAs(down);
    expect((await get(down, overview, operator)).status).toBe(200);
    expect(downLogs.some((l) => l.includes('OpenID provider discovery failed'))).toBe(true);
  });

  it('OIDC_ISSUER without an operator token: no console (404), and a warning at start that says why', async () => {
    const lines: string[] = [];
    const alone = await startTestService({
      label: 'console-oidc-alone',
      env: {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_ALLOWED_DOMAINS: 'example.com',
      },
      connections: [testConnection('acme')],
      logger: createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } }),
    });
    try {
      for (const path of ['/console/sign-in', '/console/sign-in/oidc', CALLBACK])
        expect((await get(alone, path)).status, path).toBe(404);
      expect(lines.some((l) => l.includes('OIDC_ISSUER is set but the console is off'))).toBe(true);
    } finally {
      await alone.close();
    }
  });

  it('never logs the client secret', () => {
    expect(logs.length).toBeGreaterThan(0);
    for (const line of [...logs, ...downLogs]) expect(line).not.toContain(provider.clientSecret);
  });
});
