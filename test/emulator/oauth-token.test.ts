import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { tokenResponseSchema } from '../../src/wms/index.js';
import { API, call, control, provision, setup } from './support.js';

async function oauthClient(app: ReturnType<typeof setup>['app'], tenant: string, audience = 'https://wms.example/api') {
  const res = await control<{ client_id: string; client_secret: string; audience: string }>(app, 'POST', `/tenants/${tenant}/oauth-clients`, { audience });
  expect(res.status).toBe(201);
  return res.body;
}

describe('option B POST /oauth/token: happy', () => {
  it('issues a 24 h Bearer token for client_credentials with the audience', async () => {
    const { app } = setup();
    await provision(app, 'acme');
    const client = await oauthClient(app, 'acme');
    expect(client.audience).toBe('https://wms.example/api');
    const res = await call(app, 'POST', '/oauth/token', {
      json: { client_id: client.client_id, client_secret: client.client_secret, audience: client.audience, grant_type: 'client_credentials' },
    });
    expect(res.status).toBe(200);
    // spec: "Response: access_token, token_type = Bearer, expires_in = 86400 (24 hours)"
    const token = tokenResponseSchema.parse(res.body);
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 86_400 });
    expect(decodeJwt(token.access_token)).toMatchObject({ tid: 'acme', aud: client.audience });
    // the token works on the API, scoped to its tenant
    const codes = await call(app, 'GET', `${API}/product-all-external-codes`, { token: token.access_token });
    expect(codes.status).toBe(200);
  });
});

describe('option B: errors', () => {
  it('401 for a wrong secret or for API client credentials', async () => {
    const { app } = setup();
    const p = await provision(app, 'acme');
    const client = await oauthClient(app, 'acme');
    for (const [id, secret] of [
      [client.client_id, 'wrong'],
      [p.clientId, p.clientSecret],
    ]) {
      const res = await call(app, 'POST', '/oauth/token', {
        json: { client_id: id, client_secret: secret, audience: client.audience, grant_type: 'client_credentials' },
      });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('403 access_denied for another audience', async () => {
    const { app } = setup();
    await provision(app, 'acme');
    const client = await oauthClient(app, 'acme');
    const res = await call(app, 'POST', '/oauth/token', {
      json: { client_id: client.client_id, client_secret: client.client_secret, audience: 'https://elsewhere', grant_type: 'client_credentials' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'access_denied' });
  });

  it('400 unsupported_grant_type for another grant, 400 invalid_request for a missing audience or a form body', async () => {
    const { app } = setup();
    await provision(app, 'acme');
    const client = await oauthClient(app, 'acme');
    const base = { client_id: client.client_id, client_secret: client.client_secret, audience: client.audience };
    const grant = await call(app, 'POST', '/oauth/token', { json: { ...base, grant_type: 'password' } });
    expect(grant.status).toBe(400);
    expect(grant.body).toMatchObject({ error: 'unsupported_grant_type' });
    const noAudience = await call(app, 'POST', '/oauth/token', { json: { ...base, audience: undefined, grant_type: 'client_credentials' } });
    expect(noAudience.status).toBe(400);
    expect(noAudience.body).toMatchObject({ error: 'invalid_request' });
    const form = await call(app, 'POST', '/oauth/token', {
      body: new URLSearchParams({ ...base, grant_type: 'client_credentials' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    const malformed = await call(app, 'POST', '/oauth/token', { body: '{"client_id":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'invalid_request' });
  });
});

describe('option B: security', () => {
  it('a disabled OAuth client gets no token; its tokens stop working while disabled', async () => {
    const { app } = setup();
    await provision(app, 'acme');
    const client = await oauthClient(app, 'acme');
    const body = { client_id: client.client_id, client_secret: client.client_secret, audience: client.audience, grant_type: 'client_credentials' };
    const token = (await call<{ access_token: string }>(app, 'POST', '/oauth/token', { json: body })).body.access_token;
    await control(app, 'POST', `/tenants/acme/oauth-clients/${client.client_id}/disable`);
    expect((await call(app, 'POST', '/oauth/token', { json: body })).status).toBe(401);
    expect((await call(app, 'GET', `${API}/product-all-external-codes`, { token })).status).toBe(401);
  });

  it('works even when the API client token service is disabled (the identity provider is separate)', async () => {
    const { app } = setup({ tokenServiceDisabled: true });
    await control(app, 'POST', '/tenants', { id: 'acme' });
    const client = await oauthClient(app, 'acme');
    const res = await call<{ access_token: string }>(app, 'POST', '/oauth/token', {
      json: { client_id: client.client_id, client_secret: client.client_secret, audience: client.audience, grant_type: 'client_credentials' },
    });
    expect(res.status).toBe(200);
    expect((await call(app, 'GET', `${API}/product-all-external-codes`, { token: res.body.access_token })).status).toBe(200);
  });
});
