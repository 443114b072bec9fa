import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CSP } from '../../src/lib/security-headers.js';
import { ADMIN_TOKEN } from '../console/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';

/** Every answer carries the security headers: JSON, errors, 404s, the docs page, the console. */
describe('security headers on every response', () => {
  let plain: TestService;
  let https: TestService;
  beforeAll(async () => {
    plain = await startTestService({ label: 'headers', connections: [testConnection('acme')], env: { ADMIN_TOKEN } });
    https = await startTestService({
      label: 'headers-https',
      connections: [testConnection('acme')],
      env: { ADMIN_TOKEN, PUBLIC_URL: 'https://sync.example.com' },
    });
  });
  afterAll(async () => {
    await plain.close();
    await https.close();
  });

  const paths = [
    '/healthz',
    '/openapi.json',
    '/nope',
    '/admin/v1/events',
    '/erp/v1/feed',
    '/webhooks/acme/reception-close',
  ];

  it('JSON answers and errors: CSP, X-Frame-Options DENY, Referrer-Policy, nosniff; no HSTS over plain http', async () => {
    for (const path of paths) {
      const res = await plain.app.request(path, { method: path.startsWith('/webhooks') ? 'POST' : 'GET' });
      expect(res.headers.get('content-security-policy'), path).toBe(API_CSP);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('the docs page gets a policy that lets its own script run; the console keeps its stricter one', async () => {
    const docs = await plain.app.request('/docs');
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const signIn = await plain.app.request('/console/sign-in');
    expect(signIn.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(signIn.headers.get('x-frame-options')).toBe('DENY');
  });

  it('HSTS on every answer when PUBLIC_URL is https', async () => {
    for (const path of [...paths, '/docs', '/console/sign-in'])
      expect((await https.app.request(path)).headers.get('strict-transport-security'), path).toBe('max-age=31536000');
  });
});
