import { afterAll, describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/emulator/http/control-auth.js';
import { type EmulatorServer, startEmulatorServer } from '../../src/emulator/index.js';
import { API, call, control, issueToken, provision, setup } from './support.js';

describe('tenants: POST /_emulator/tenants, GET, PUT settings, DELETE', () => {
  it('creates a tenant (201) with default settings, lists and gets it', async () => {
    const { app } = setup();
    const res = await control(app, 'POST', '/tenants', { id: 'acme' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 'acme', settings: { API_WITH_LOT: false, API_WITH_EXPIRATION_DATE: false } });
    await control(app, 'POST', '/tenants', { id: 'beta', settings: { API_WITH_LOT: true } });
    expect((await control(app, 'GET', '/tenants')).body).toEqual([
      res.body,
      { id: 'beta', settings: { API_WITH_LOT: true, API_WITH_EXPIRATION_DATE: false } },
    ]);
    expect((await control(app, 'GET', '/tenants/beta')).status).toBe(200);
  });

  it('PUT settings changes the given settings and keeps the others', async () => {
    const { app } = setup();
    await control(app, 'POST', '/tenants', { id: 'acme', settings: { API_WITH_LOT: true } });
    const res = await control(app, 'PUT', '/tenants/acme/settings', { API_WITH_EXPIRATION_DATE: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'acme', settings: { API_WITH_LOT: true, API_WITH_EXPIRATION_DATE: true } });
  });

  it('409 for a tenant that exists, 404 for an unknown one, 400 for bad ids and settings', async () => {
    const { app } = setup();
    await control(app, 'POST', '/tenants', { id: 'acme' });
    expect((await control(app, 'POST', '/tenants', { id: 'acme' })).body).toMatchObject({ error: 'tenant_exists' });
    expect((await control(app, 'GET', '/tenants/nope')).status).toBe(404);
    expect((await control(app, 'PUT', '/tenants/nope/settings', { API_WITH_LOT: true })).status).toBe(404);
    expect((await control(app, 'DELETE', '/tenants/nope')).status).toBe(404);
    for (const body of [
      {},
      { id: '' },
      { id: 'has space' },
      { id: 'x'.repeat(65) },
      { id: 'ok', settings: { API_WITH_LOTS: true } },
      { id: 'ok', settings: { API_WITH_LOT: 'yes' } },
    ]) {
      const res = await control(app, 'POST', '/tenants', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
    }
    const malformed = await call(app, 'POST', '/_emulator/tenants', {
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'invalid_request' });
  });
});

describe('API clients and OAuth clients', () => {
  it('shows the secret once; lists clients without secrets; stores only a salted hash', async () => {
    const { app, emulator } = setup();
    await control(app, 'POST', '/tenants', { id: 'acme' });
    const created = await control<{ client_id: string; client_secret: string; name: string }>(
      app,
      'POST',
      '/tenants/acme/api-clients',
      { name: 'ERP' },
    );
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('ERP');
    expect(created.body.client_secret.length).toBeGreaterThanOrEqual(43); // 256 random bits
    const listed = await control(app, 'GET', '/tenants/acme/api-clients');
    expect(listed.body).toEqual([{ client_id: created.body.client_id, kind: 'api', name: 'ERP', enabled: true }]);
    const dump = JSON.stringify(emulator.state.ctx.db.prepare('SELECT * FROM clients').all());
    expect(dump).not.toContain(created.body.client_secret);
  });

  it('disable/enable answer the client; regenerate answers a new secret; delete answers 204', async () => {
    const { app } = setup();
    const p = await provision(app, 'acme');
    const base = `/tenants/acme/api-clients/${p.clientId}`;
    expect((await control(app, 'POST', `${base}/disable`)).body).toMatchObject({ enabled: false });
    expect((await control(app, 'POST', `${base}/enable`)).body).toMatchObject({ enabled: true });
    const regenerated = await control<{ client_secret: string }>(app, 'POST', `${base}/regenerate-secret`);
    expect(regenerated.body.client_secret).not.toBe(p.clientSecret);
    expect((await control(app, 'DELETE', base)).status).toBe(204);
    expect((await control(app, 'GET', '/tenants/acme/api-clients')).body).toEqual([]);
  });

  it('404 for a client of another tenant or of the other kind; 400 for a missing name or audience', async () => {
    const { app } = setup();
    const a = await provision(app, 'acme');
    await provision(app, 'beta');
    expect((await control(app, 'POST', `/tenants/beta/api-clients/${a.clientId}/disable`)).status).toBe(404);
    expect((await control(app, 'DELETE', `/tenants/acme/oauth-clients/${a.clientId}`)).status).toBe(404);
    expect((await control(app, 'POST', '/tenants/nope/api-clients', { name: 'x' })).status).toBe(404);
    expect((await control(app, 'POST', '/tenants/acme/api-clients', {})).status).toBe(400);
    expect((await control(app, 'POST', '/tenants/acme/oauth-clients', {})).status).toBe(400);
    // the client still works: nothing was changed by the refused calls
    expect((await issueToken(app, a.clientId, a.clientSecret)).status).toBe(200);
  });

  it('OAuth clients: created with their audience, managed like API clients', async () => {
    const { app } = setup();
    await control(app, 'POST', '/tenants', { id: 'acme' });
    const created = await control<{ client_id: string; audience: string }>(app, 'POST', '/tenants/acme/oauth-clients', {
      audience: 'https://api',
    });
    expect(created.status).toBe(201);
    expect(created.body.audience).toBe('https://api');
    expect((await control(app, 'GET', '/tenants/acme/oauth-clients')).body).toEqual([
      { client_id: created.body.client_id, kind: 'oauth', audience: 'https://api', enabled: true },
    ]);
    expect(
      (await control(app, 'POST', `/tenants/acme/oauth-clients/${created.body.client_id}/regenerate-secret`)).status,
    ).toBe(200);
  });
});

describe('resets', () => {
  it("tenant reset clears the tenant's data and keeps its settings and credentials", async () => {
    const { app } = setup();
    const p = await provision(app, 'acme', { API_WITH_LOT: true });
    const other = await provision(app, 'beta');
    await call(app, 'POST', `${API}/product`, { token: p.token, json: { externalCode: 'P1', description: 'p' } });
    await call(app, 'POST', `${API}/product`, { token: other.token, json: { externalCode: 'P1', description: 'p' } });
    await call(app, 'POST', `${API}/delivery-point`, {
      token: p.token,
      json: { externalCode: 'D', active: true, name: 'd' },
    });
    expect((await control(app, 'POST', '/tenants/acme/reset')).status).toBe(204);
    expect((await call(app, 'GET', `${API}/product-all-external-codes`, { token: p.token })).body).toBe('');
    expect((await call(app, 'GET', `${API}/delivery-point`, { token: p.token })).body).toEqual([]);
    expect((await call(app, 'GET', `${API}/product-all-external-codes`, { token: other.token })).body).toBe('P1');
    expect((await control(app, 'GET', '/tenants/acme')).body).toMatchObject({ settings: { API_WITH_LOT: true } });
    expect((await control(app, 'POST', '/tenants/nope/reset')).status).toBe(404);
  });

  it('full reset removes every tenant and applies the demo seed again', async () => {
    const { app } = setup({ seed: 'demo' });
    await provision(app, 'acme');
    expect((await control(app, 'POST', '/reset')).status).toBe(204);
    expect((await control<{ id: string }[]>(app, 'GET', '/tenants')).body.map((t) => t.id)).toEqual(['demo']);
    const token = await issueToken(app, 'demo-client', 'demo-secret');
    expect(token.status).toBe(200);
    expect(
      await call(app, 'GET', `${API}/product-all-external-codes`, { token: token.body.access_token }),
    ).toMatchObject({ body: 'DEMO-001,DEMO-002,DEMO-003,DEMO-004' });
  });
});

describe('control API security', () => {
  let server: EmulatorServer | undefined;
  afterAll(async () => server?.close());

  it('with EMULATOR_ADMIN_TOKEN set, requires it as a Bearer (401 otherwise), over real HTTP', async () => {
    server = await startEmulatorServer({ adminToken: 'admin-secret-123' });
    const post = (headers: Record<string, string>) =>
      fetch(`${server!.url}/_emulator/tenants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"id":"acme"}',
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect(await (await post({ authorization: 'Bearer wrong' })).json()).toMatchObject({ error: 'unauthorized' });
    expect((await post({ authorization: 'Bearer admin-secret-123' })).status).toBe(201);
    // the API reference stays readable
    expect((await fetch(`${server.url}/_emulator/openapi.json`)).status).toBe(200);
  });

  it('without an admin token, only loopback callers are let in', async () => {
    const open = await startEmulatorServer();
    try {
      expect((await fetch(`${open.url}/_emulator/tenants`)).status).toBe(200);
    } finally {
      await open.close();
    }
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('10.0.0.5')).toBe(false);
    expect(isLoopback('::ffff:192.168.1.2')).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });

  it('WMS API tokens do not open the control API when an admin token is set', async () => {
    const { app } = setup({ adminToken: 'admin-secret-123' });
    const res = await call(app, 'POST', '/_emulator/tenants', {
      json: { id: 'x' },
      headers: { authorization: 'Bearer some-api-token' },
    });
    expect(res.status).toBe(401);
  });
});
