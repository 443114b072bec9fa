import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, get, ORIGIN, post, sessionCookie, signInAs } from './support.js';

describe('console sign-in, sessions and cross-site protection', () => {
  let svc: TestService;
  let rotated: TestService;
  let off: TestService;
  const clock = new ManualClock(new Date('2026-11-20T10:00:00.000Z'));
  const overview = '/console/connections/acme/overview';

  beforeAll(async () => {
    const connections = [testConnection('acme')];
    svc = await startTestService({
      label: 'console-auth',
      env: { ADMIN_TOKEN, CONSOLE_SESSION_HOURS: '2' },
      clock,
      connections,
    });
    rotated = await startTestService({
      label: 'console-rotated',
      env: { ADMIN_TOKEN: `${ADMIN_TOKEN}-rotated` },
      clock,
      connections,
    });
    off = await startTestService({ label: 'console-off', connections });
  });
  afterAll(async () => {
    await svc.close();
    await rotated.close();
    await off.close();
  });

  it('does not exist with ADMIN_TOKEN unset: 404 for pages, sign-in and assets', async () => {
    for (const path of ['/console', '/console/sign-in', overview, '/console/assets/console.css'])
      expect((await get(off, path)).status, path).toBe(404);
    expect((await post(off, '/console/sign-in', undefined, { token: ADMIN_TOKEN })).status).toBe(404);
  });

  it('sends a page request without a session to the sign-in page, and remembers where it was going', async () => {
    const res = await get(svc, `${overview}?x=1`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/console/sign-in?next=${encodeURIComponent(`${overview}?x=1`)}`);
    const signInPage = await get(svc, '/console/sign-in');
    expect(signInPage.status).toBe(200);
    expect(await signInPage.text()).toContain('name="token"');
  });

  it('refuses an htmx fragment (401 + HX-Redirect) and an action (401) without a session, changing nothing', async () => {
    const fragment = await get(svc, `${overview}/live`, undefined, { 'hx-request': 'true' });
    expect(fragment.status).toBe(401);
    expect(fragment.headers.get('hx-redirect')).toBe('/console/sign-in');
    const fromPage = await get(svc, `${overview}/live`, undefined, {
      'hx-request': 'true',
      'hx-current-url': `http://localhost${overview}`,
    });
    expect(fromPage.headers.get('hx-redirect')).toBe(`/console/sign-in?next=${encodeURIComponent(overview)}`);
    const action = await post(svc, '/console/connections/acme/reconciliations', undefined);
    expect(action.status).toBe(401);
    expect(await svc.deps.store.reconciliation.listRuns('acme', { limit: 1 })).toEqual([]);
  });

  it('a wrong token gets 401 and the form again; the right one a session cookie: signed, HttpOnly, SameSite=Strict, with an expiry', async () => {
    const wrong = await post(svc, '/console/sign-in', undefined, { token: 'not-the-token-at-all' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('That is not the admin token of this service.');
    expect(sessionCookie(wrong)).toBeUndefined();
    const right = await post(svc, '/console/sign-in', undefined, { token: ADMIN_TOKEN, next: overview });
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe(overview);
    const set = right.headers.getSetCookie().find((c) => c.startsWith('wms_console_session='))!;
    expect(set).toMatch(/; Max-Age=7200/);
    expect(set).toMatch(/; Path=\/console/);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    // Not Secure over plain http (a browser would drop it on http://127.0.0.1).
    expect(set).not.toMatch(/; Secure/);
    // The token itself is never in the cookie: it is a signed session.
    expect(set).not.toContain(ADMIN_TOKEN);
  });

  it('never redirects a sign-in to another site', async () => {
    for (const next of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      '/console/sign-out',
      '/docs',
    ]) {
      const res = await post(svc, '/console/sign-in', undefined, { token: ADMIN_TOKEN, next });
      expect(res.headers.get('location'), next).toBe('/console');
    }
  });

  it('a session opens the pages, served with a strict Content-Security-Policy and never cached', async () => {
    const op = await signInAs(svc);
    const res = await get(svc, overview, op);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await get(svc, '/console', op)).headers.get('location')).toBe(overview);
  });

  it('refuses a state change from another origin (403) even with a valid session and token', async () => {
    const op = await signInAs(svc);
    for (const origin of ['http://evil.example', 'http://localhost:9999', 'null']) {
      const res = await post(svc, '/console/connections/acme/reconciliations', op, {}, { origin });
      expect(res.status, origin).toBe(403);
    }
    // A browser that sends no Origin still sends Sec-Fetch-Site: cross-site is refused.
    const noOrigin = await svc.app.request('/console/connections/acme/reconciliations', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: op.cookie,
        'sec-fetch-site': 'cross-site',
      },
      body: new URLSearchParams({ _csrf: op.csrf }),
    });
    expect(noOrigin.status).toBe(403);
    expect(await svc.deps.store.reconciliation.listRuns('acme', { limit: 1 })).toEqual([]);
  });

  it('refuses a state change without the session’s CSRF token, or with another one (403)', async () => {
    const op = await signInAs(svc);
    const other = await signInAs(svc);
    for (const csrf of ['', 'forged', other.csrf]) {
      const res = await post(svc, '/console/connections/acme/reconciliations', { ...op, csrf });
      expect(res.status, csrf).toBe(403);
    }
    expect(await svc.deps.store.reconciliation.listRuns('acme', { limit: 1 })).toEqual([]);
    // The header form (htmx) works like the form field.
    const viaHeader = await svc.app.request('/console/connections/acme/reconciliations', {
      method: 'POST',
      headers: { origin: ORIGIN, cookie: op.cookie, 'x-csrf-token': op.csrf },
    });
    expect(viaHeader.status).toBe(303);
    expect((await svc.deps.store.reconciliation.listRuns('acme', { limit: 5 })).length).toBe(1);
  });

  it('a forged or tampered cookie is no session', async () => {
    const op = await signInAs(svc);
    const [name, value] = op.cookie.split('=') as [string, string];
    const [header, payload, signature] = value.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: (claims.exp as number) + 86_400 })).toString(
      'base64url',
    );
    for (const cookie of [
      `${name}=${header}.${longer}.${signature}`,
      `${name}=${header}.${payload}.AAAA`,
      `${name}=garbage`,
    ]) {
      expect((await get(svc, overview, { cookie, csrf: '' })).status, cookie).toBe(303);
    }
  });

  it('signs out: the cookie is cleared', async () => {
    const op = await signInAs(svc);
    const res = await post(svc, '/console/sign-out', op);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/sign-in');
    expect(res.headers.getSetCookie().find((c) => c.startsWith('wms_console_session='))).toMatch(/Max-Age=0/);
  });

  it('a session ends at its expiry (CONSOLE_SESSION_HOURS)', async () => {
    const op = await signInAs(svc);
    clock.advance(2 * 3600 * 1000 - 1000);
    expect((await get(svc, overview, op)).status).toBe(200);
    clock.advance(2000);
    expect((await get(svc, overview, op)).status).toBe(303);
  });

  it('rotating ADMIN_TOKEN ends every session: a cookie of the old token opens nothing', async () => {
    const op = await signInAs(svc);
    expect((await get(rotated, overview, op)).status).toBe(303);
  });

  it('wrong tokens go through the service-wide failure limiter, keyed on the client behind TRUST_PROXY_HOPS, counted; the right token is never refused', async () => {
    const fresh = await startTestService({
      label: 'console-limit',
      env: { ADMIN_TOKEN, TRUST_PROXY_HOPS: '1', AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_SECONDS: '900' },
      clock,
      connections: [testConnection('acme')],
    });
    const from = (address: string) => ({ 'x-forwarded-for': `198.51.100.77, ${address}` });
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (await post(fresh, '/console/sign-in', undefined, { token: `wrong-${i}-0123456789` }, from('203.0.113.5')))
            .status,
        ).toBe(401);
      const limited = await post(
        fresh,
        '/console/sign-in',
        undefined,
        { token: 'wrong-x-0123456789' },
        from('203.0.113.5'),
      );
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(sessionCookie(limited)).toBeUndefined();
      // The operator behind the same proxy, even at the guesser's own address, gets in.
      const right = await post(fresh, '/console/sign-in', undefined, { token: ADMIN_TOKEN }, from('203.0.113.5'));
      expect(right.status).toBe(303);
      expect(sessionCookie(right)).toBeDefined();
      // Keyed on the client the proxy saw, not on the proxy: another client is not limited.
      expect(
        (await post(fresh, '/console/sign-in', undefined, { token: 'wrong-y-0123456789' }, from('203.0.113.9'))).status,
      ).toBe(401);
      const metrics = await fresh.deps.metrics.metrics();
      expect(metrics).toContain('wms_sync_auth_failures_total{area="console",scheme="form"} 5');
      expect(metrics).toContain('wms_sync_auth_limited_total{area="console",scheme="form"} 1');
    } finally {
      await fresh.close();
    }
  });

  it('a next with control characters or raw non-ASCII is dropped: the sign-in goes to /console, never a 500', async () => {
    for (const next of ['/console/x\r\nSet-Cookie: a=b', '/console/x\u0000', '/console/caf\u00e9', '/console/\t']) {
      const res = await post(svc, '/console/sign-in', undefined, { token: ADMIN_TOKEN, next });
      expect(res.status, JSON.stringify(next)).toBe(303);
      expect(res.headers.get('location')).toBe('/console');
    }
    const page = await get(svc, `/console/sign-in?next=${encodeURIComponent('/console/x\r\ny')}`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('name="next"');
  });

  it('every other method on the sign-in page and the assets is 405 with Allow (or 404), never a 500', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const signIn = await svc.app.request('/console/sign-in', { method, headers: { origin: ORIGIN } });
      expect(signIn.status, method).toBe(405);
      expect(signIn.headers.get('allow')).toBe('GET, HEAD, POST');
      const css = await svc.app.request('/console/assets/console.css', { method, headers: { origin: ORIGIN } });
      expect(css.status, method).toBe(405);
      const none = await svc.app.request('/console/assets/nope.js', { method, headers: { origin: ORIGIN } });
      expect(none.status, method).toBe(404);
    }
  });

  it('signing out needs the session’s CSRF token (403 without it, the session kept)', async () => {
    const op = await signInAs(svc);
    const forged = await post(svc, '/console/sign-out', { cookie: op.cookie, csrf: '' });
    expect(forged.status).toBe(403);
    expect(sessionCookie(forged)).toBeUndefined();
    expect((await get(svc, overview, op)).status).toBe(200);
  });

  it('session and flash cookies are Secure over https: PUBLIC_URL, or X-Forwarded-Proto from a trusted proxy only', async () => {
    const proxied = await startTestService({
      label: 'console-https',
      env: { ADMIN_TOKEN, TRUST_PROXY_HOPS: '1' },
      clock,
      connections: [testConnection('acme')],
    });
    try {
      const https = await post(
        proxied,
        '/console/sign-in',
        undefined,
        { token: ADMIN_TOKEN },
        { 'x-forwarded-proto': 'https' },
      );
      expect(https.headers.getSetCookie().find((c) => c.startsWith('wms_console_session='))).toMatch(/; Secure/);
      const op = await signInAs(proxied);
      const acted = await post(
        proxied,
        '/console/connections/acme/reconciliations',
        op,
        {},
        { 'x-forwarded-proto': 'https' },
      );
      const flash = acted.headers.getSetCookie().find((c) => c.startsWith('wms_console_flash='));
      expect(flash).toMatch(/; Secure/);
      // Without a trusted proxy the header is the client's own: ignored.
      const direct = await post(
        svc,
        '/console/sign-in',
        undefined,
        { token: ADMIN_TOKEN },
        { 'x-forwarded-proto': 'https' },
      );
      expect(direct.headers.getSetCookie().find((c) => c.startsWith('wms_console_session='))).not.toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });

  it('serves its assets without a session, from the package (htmx) and its own files', async () => {
    const css = await get(svc, '/console/assets/console.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    const htmx = await get(svc, '/console/assets/htmx.min.js');
    expect(htmx.status).toBe(200);
    expect(await htmx.text()).toContain('htmx');
    expect((await get(svc, '/console/assets/console.js')).status).toBe(200);
    expect((await get(svc, '/console/assets/nope.js')).status).toBe(404);
  });
});
