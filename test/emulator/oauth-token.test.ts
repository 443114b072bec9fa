import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { tokenResponseSchema } from '../../src/wms/index.js';
import { API, call, control, provision, setup } from './support.js';

async function oauthClient(app: ReturnType<typeof setup>['app'], tenant: string, audience = 'https://wms.example/api') {
  const res = await control<{ client_id: string; client_secret: string; audience: string }>(
    app,
    'POST',
    `/tenants/${tenant}/oauth-clients`,
    { audience },
  );
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
      json: {
        client_id: client.client_id,
        client_secret: client.client_secret,
        audience: client.audience,
        grant_type: 'client_credentials',
      },
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
      json: {
        client_id: client.client_id,
        client_secret: client.client_secret,
        audience: 'https://elsewhere',
        grant_type: 'client_credentials',
      },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'access_denied' });
  });

  it('400 unsupported_grant_type for another grant, 400 invalid_request for a missing audience or a form body', async () => {
    const { app } = setup();
    await provision(app, 'acme');
    const client = await oauthClient(app, 'acme');
    const base = { client_id: client.client_id, client_secret: client.client_secret, audience: client.audience };
    const grant = await call(app, 'POST', '/oauth/token', { json: { ...base, grant_type: 'authorization_code' } });
    expect(grant.status).toBe(400);
    expect(grant.body).toMatchObject({ error: 'unsupported_grant_type' });
    const noAudience = await call(app, 'POST', '/oauth/token', {
      json: { ...base, audience: undefined, grant_type: 'client_credentials' },
    });
    expect(noAudience.status).toBe(400);
    expect(noAudience.body).toMatchObject({ error: 'invalid_request' });
    const form = await call(app, 'POST', '/oauth/token', {
      body: new URLSearchParams({ ...base, grant_type: 'client_credentials' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    const malformed = await call(app, 'POST', '/oauth/token', {
      body: '{"client_id":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'invalid_request' });
  });
});

describe('option B, the password flow the spec declares (scope openid)', () => {
  async function withUser(app: ReturnType<typeof setup>['app'], tenant = 'acme') {
    await provision(app, tenant);
    const client = await oauthClient(app, tenant);
    const user = await control<{ username: string; password: string }>(app, 'POST', `/tenants/${tenant}/oauth-users`, {
      username: 'integrator@acme',
    });
    expect(user.status).toBe(201);
    const body = {
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: client.audience,
      grant_type: 'password',
      username: user.body.username,
      password: user.body.password,
      scope: 'openid',
    };
    return { client, user: user.body, body };
  }

  it('issues a 24 h token to the client for a user of its tenant, working on the API', async () => {
    const { app } = setup();
    const { body } = await withUser(app);
    // spec: "The declared flow for this scheme is the password flow at the same token URL with scope openid."
    const res = await call(app, 'POST', '/oauth/token', { json: { ...body, scope: 'openid profile' } });
    expect(res.status).toBe(200);
    const token = tokenResponseSchema.parse(res.body);
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 86_400 });
    expect(decodeJwt(token.access_token)).toMatchObject({ tid: 'acme', sub: body.client_id, aud: body.audience });
    expect((await call(app, 'GET', `${API}/product-all-external-codes`, { token: token.access_token })).status).toBe(
      200,
    );
  });

  it('403 invalid_grant alike for a wrong password, an unknown user and a user of another tenant', async () => {
    const { app } = setup();
    const { body } = await withUser(app);
    const other = await withUser(app, 'other');
    const answers = [];
    for (const attempt of [
      { ...body, password: 'wrong-password' },
      { ...body, username: 'nobody@acme' },
      { ...body, username: other.user.username, password: other.user.password },
    ]) {
      const res = await call(app, 'POST', '/oauth/token', { json: attempt });
      expect(res.status).toBe(403);
      answers.push(res.body);
    }
    // One answer whatever was wrong: the endpoint does not tell which usernames exist.
    expect(answers).toEqual([answers[0], answers[0], answers[0]]);
    expect(answers[0]).toMatchObject({ error: 'invalid_grant' });
  });

  it('400 invalid_scope without openid; 400 invalid_request without username, password or scope; 401 for a wrong client', async () => {
    const { app } = setup();
    const { body } = await withUser(app);
    const scope = await call(app, 'POST', '/oauth/token', { json: { ...body, scope: 'profile' } });
    expect(scope.status).toBe(400);
    expect(scope.body).toMatchObject({ error: 'invalid_scope' });
    for (const missing of ['username', 'password', 'scope'] as const) {
      const res = await call(app, 'POST', '/oauth/token', { json: { ...body, [missing]: undefined } });
      expect(res.status, missing).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
    }
    const client = await call(app, 'POST', '/oauth/token', { json: { ...body, client_secret: 'wrong' } });
    expect(client.status).toBe(401);
    expect(client.body).toMatchObject({ error: 'invalid_client' });
  });

  it('users: a chosen password, listed without passwords, 409 twice, deleted (and its password stops working), 404 for unknown ones', async () => {
    const { app } = setup();
    const { body } = await withUser(app);
    const chosen = await control<{ username: string; password: string }>(app, 'POST', '/tenants/acme/oauth-users', {
      username: 'second',
      password: 'chosen-password',
    });
    expect(chosen.body).toEqual({ username: 'second', password: 'chosen-password' });
    const list = await control(app, 'GET', '/tenants/acme/oauth-users');
    expect(list.body).toEqual([{ username: 'integrator@acme' }, { username: 'second' }]);
    expect((await control(app, 'POST', '/tenants/acme/oauth-users', { username: 'second' })).status).toBe(409);
    expect((await control(app, 'POST', '/tenants/nowhere/oauth-users', { username: 'x' })).status).toBe(404);
    expect((await control(app, 'POST', '/tenants/acme/oauth-users', { username: 'x', password: 'short' })).status).toBe(
      400,
    );
    expect((await control(app, 'DELETE', '/tenants/acme/oauth-users/integrator@acme')).status).toBe(204);
    expect((await control(app, 'DELETE', '/tenants/acme/oauth-users/integrator@acme')).status).toBe(404);
    expect((await call(app, 'POST', '/oauth/token', { json: body })).status).toBe(403);
  });
});

describe('option B: security', () => {
  it('a disabled OAuth client gets no token; its tokens stop working while disabled', async () => {
    const { app } = setup();
    await provision(app, 'acme');
    const client = await oauthClient(app, 'acme');
    const body = {
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: client.audience,
      grant_type: 'client_credentials',
    };
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
      json: {
        client_id: client.client_id,
        client_secret: client.client_secret,
        audience: client.audience,
        grant_type: 'client_credentials',
      },
    });
    expect(res.status).toBe(200);
    expect((await call(app, 'GET', `${API}/product-all-external-codes`, { token: res.body.access_token })).status).toBe(
      200,
    );
  });
});
