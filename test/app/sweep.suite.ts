import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../console/support.js';
import { basicAuth, startTestService, type TestService, testConnection } from '../support/service.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Values an outsider may put where a route expects a parameter. */
const BAD_PARAMS = [
  'x',
  '-1',
  '0',
  '99999999999999999999999',
  '1.5',
  '%00',
  '%0d%0a',
  '%E9',
  'a'.repeat(600),
  '..%2F..',
];

/** What a request may carry: nothing, wrong credentials, a body that is not what the route reads. */
const VARIANTS: { label: string; headers: Record<string, string>; body?: string }[] = [
  { label: 'unauthenticated', headers: {} },
  { label: 'wrong Bearer', headers: { authorization: 'Bearer not-the-token-0123456789' } },
  { label: 'broken Basic', headers: { authorization: 'Basic %%%' } },
  {
    label: 'admin token, body not JSON',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: '{"a":',
  },
  {
    label: 'admin token, form with control characters',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'next=%2Fconsole%2Fx%0d%0aSet-Cookie:%20a=b&token=%00',
  },
];

/** Every route of the app's own list with its parameters filled by `value`. */
function concrete(path: string, value: string): string {
  return path
    .split('/')
    .map((part) => (part.startsWith(':') || part === '*' ? value : part.replace(/\{[^}]+\}/g, value)))
    .join('/');
}

/**
 * Every method on every route of the service (the router's own list), unauthenticated and with bad
 * inputs: nothing an outsider sends is answered 5xx.
 */
export function sweepSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`every method on every route (${dialect})`, { timeout: 300_000 }, () => {
    let svc: TestService;
    const acme = testConnection('acme');
    beforeAll(async () => {
      svc = await startTestService({ label: `sweep-${dialect}`, dialect, connections: [acme], env: { ADMIN_TOKEN } });
    });
    afterAll(() => svc.close());

    it('answers no 5xx, whatever the method, the parameters and the credentials', async () => {
      const paths = new Set<string>();
      for (const r of svc.app.routes) for (const v of BAD_PARAMS) paths.add(concrete(r.path, v));
      expect(paths.size).toBeGreaterThan(100);
      const failures: string[] = [];
      for (const path of paths)
        for (const method of METHODS)
          for (const variant of VARIANTS) {
            const res = await svc.app.request(path, {
              method,
              headers: { ...variant.headers, origin: 'http://localhost' },
              ...(variant.body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body: variant.body } : {}),
            });
            if (res.status >= 500) failures.push(`${method} ${path.slice(0, 120)} (${variant.label}) → ${res.status}`);
            await res.body?.cancel();
          }
      expect(failures).toEqual([]);
    });

    it('the webhook receiver with the right credentials and bad bodies answers 4xx, never 5xx', async () => {
      const auth = basicAuth(acme.webhookCredentials[0]!.username, acme.webhookCredentials[0]!.password);
      const failures: string[] = [];
      for (const kind of ['reception-close', 'stock-regularization', 'nope'])
        for (const body of ['', 'null', '[]', '{"a":', '"\\ud800"', '{"x":'.repeat(10_000), '\u0000'])
          for (const method of METHODS) {
            const res = await svc.app.request(`/webhooks/acme/${kind}`, {
              method,
              headers: { authorization: auth, 'content-type': 'application/json' },
              ...(method !== 'GET' && method !== 'HEAD' ? { body } : {}),
            });
            if (res.status >= 500) failures.push(`${method} ${kind} ${body.slice(0, 20)} → ${res.status}`);
            await res.body?.cancel();
          }
      expect(failures).toEqual([]);
    });
  });
}
