import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService, testConnection } from '../support/service.js';

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

describe('admin API: GET /admin/v1/connections', () => {
  let svc: TestService;
  let off: TestService;
  const acme = testConnection('acme');
  const beta = testConnection('beta');

  beforeAll(async () => {
    svc = await startTestService({ label: 'admin-connections', env: { ADMIN_TOKEN }, connections: [acme, beta] });
    off = await startTestService({ label: 'admin-off', connections: [acme] });
  });
  afterAll(async () => {
    await svc.close();
    await off.close();
  });

  const get = (app: TestService['app'], headers: Record<string, string> = {}) =>
    app.request('/admin/v1/connections', { headers });

  it('lists every connection with its webhook paths and no secret', async () => {
    const res = await get(svc.app, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { connections: { name: string; webhookPaths: string[] }[] };
    expect(body.connections.map((c) => c.name)).toEqual(['acme', 'beta']);
    expect(body.connections[0]!.webhookPaths).toContain('/webhooks/acme/stock-regularization');
    const text = JSON.stringify(body);
    for (const secret of [acme.wms.clientSecret, acme.erpApiToken, acme.webhookCredentials[0]!.password])
      expect(text).not.toContain(secret);
  });

  it('accepts the scheme in any case (RFC 9110)', async () => {
    expect((await get(svc.app, { authorization: `bearer ${ADMIN_TOKEN}` })).status).toBe(200);
  });

  it('refuses a missing, wrong, or non-Bearer credential with 401 and a challenge', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${ADMIN_TOKEN}x`,
      `Bearer ${acme.erpApiToken}`,
      `Basic ${Buffer.from(`x:${ADMIN_TOKEN}`).toString('base64')}`,
    ]) {
      const res = await get(svc.app, authorization ? { authorization } : {});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="wms-sync admin API"/);
      expect(await res.json()).toMatchObject({ success: false, error: 'unauthorized' });
    }
  });

  it('an ERP token does not open the admin API, and the admin token does not open the ERP API', async () => {
    expect((await get(svc.app, { authorization: `Bearer ${acme.erpApiToken}` })).status).toBe(401);
    const erp = await svc.app.request('/erp/v1/feed', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(erp.status).toBe(401);
  });

  it('is in the OpenAPI document with its security scheme', async () => {
    const doc = (await (await svc.app.request('/openapi.json')).json()) as {
      paths: Record<string, unknown>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.paths['/admin/v1/connections']).toBeDefined();
    expect(doc.components.securitySchemes.adminBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('with ADMIN_TOKEN unset the admin API does not exist: 404, even with a token, and no OpenAPI entry', async () => {
    const res = await get(off.app, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false, error: 'not_found' });
    const doc = (await (await off.app.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/admin/'))).toBe(false);
  });
});
