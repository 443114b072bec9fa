import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, admin } from './support.js';

/** Every connection-scoped admin route of the console's read models and actions. */
const ROUTES: [string, string][] = [
  ['GET', '/admin/v1/connections/acme/overview'],
  ['GET', '/admin/v1/connections/acme/pushes?entity=product'],
  ['GET', '/admin/v1/connections/acme/pushes/product/P-1'],
  ['POST', '/admin/v1/connections/acme/pushes/product/P-1/retry'],
  ['POST', '/admin/v1/connections/acme/pushes/retry-failed'],
  ['POST', '/admin/v1/connections/acme/pushes/document/D-1/cancel'],
  ['GET', '/admin/v1/connections/acme/reconciliations'],
  ['POST', '/admin/v1/connections/acme/reconciliations'],
  ['GET', '/admin/v1/connections/acme/reconciliations/1'],
  ['GET', '/admin/v1/connections/acme/feed'],
];

describe('admin API security: every console route', () => {
  let svc: TestService;
  let off: TestService;
  const acme = testConnection('acme');

  beforeAll(async () => {
    svc = await startTestService({ label: 'admin-security', env: { ADMIN_TOKEN }, connections: [acme] });
    off = await startTestService({ label: 'admin-security-off', connections: [acme] });
  });
  afterAll(async () => {
    await svc.close();
    await off.close();
  });

  it('refuses a missing, wrong or ERP token with 401 and a Bearer challenge, and changes nothing', async () => {
    for (const [method, path] of ROUTES) {
      for (const authorization of [undefined, `Bearer ${ADMIN_TOKEN}x`, `Bearer ${acme.erpApiToken}`]) {
        const res = await admin(svc, method, path, {
          headers: authorization ? { authorization } : { authorization: '' },
        });
        expect(res.status, `${method} ${path} with ${authorization ?? 'nothing'}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="wms-sync admin API"/);
      }
    }
    expect(await svc.deps.store.reconciliation.listRuns('acme', { limit: 5 })).toEqual([]);
  });

  it('answers 404 naming an unknown connection (another tenant’s name reads nothing)', async () => {
    for (const [method, path] of ROUTES) {
      const res = await admin(svc, method, path.replace('/connections/acme/', '/connections/nobody/'));
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: 'not_found', message: 'No connection "nobody"' });
    }
  });

  it('does not exist with ADMIN_TOKEN unset: 404 even with a token', async () => {
    for (const [method, path] of ROUTES) {
      const res = await admin(off, method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});
