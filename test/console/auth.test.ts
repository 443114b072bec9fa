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
    expect(await wrong.text()).toContain('That is not an admin token of this service.');
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

  it('throttles repeated wrong tokens from one address (429 with Retry-After), then lets it try again', async () => {
    const fresh = await startTestService({
      label: 'console-throttle',
      env: { ADMIN_TOKEN },
      clock,
      connections: [testConnection('acme')],
    });
    try {
      for (let i = 0; i < 5; i++)
        expect((await post(fresh, '/console/sign-in', undefined, { token: `wrong-${i}-0123456789` })).status).toBe(401);
      const locked = await post(fresh, '/console/sign-in', undefined, { token: ADMIN_TOKEN });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(sessionCookie(locked)).toBeUndefined();
      clock.advance(15 * 60 * 1000 + 1000);
      expect((await post(fresh, '/console/sign-in', undefined, { token: ADMIN_TOKEN })).status).toBe(303);
    } finally {
      await fresh.close();
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
