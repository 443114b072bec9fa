import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { tokenErrorSchema, tokenResponseSchema } from '../../src/wms/index.js';
import { API, call, control, issueToken, provision, setup } from './support.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const TOKEN = `${API}/auth/token`;

describe('endpoint 21 POST /auth/token (option A): happy', () => {
  it('issues a Bearer JWT for 3600 s, scoped to the tenant, not cached', async () => {
    const { app, clock } = setup();
    const p = await provision(app, 'acme');
    const res = await issueToken(app, p.clientId, p.clientSecret);
    expect(res.status).toBe(200);
    // spec: "Token response (200): access_token (string, JWT), token_type (always Bearer), expires_in (3600)"
    const token = tokenResponseSchema.parse(res.body);
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const claims = decodeJwt(token.access_token);
    expect(claims).toMatchObject({ sub: p.clientId, tid: 'acme' });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.iat).toBe(Math.floor(clock.nowMs() / 1000));
  });

  it('accepts the form with a charset parameter', async () => {
    const { app } = setup();
    const p = await provision(app, 'acme');
    const res = await call(app, 'POST', TOKEN, {
      body: `client_id=${p.clientId}&client_secret=${encodeURIComponent(p.clientSecret)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    });
    expect(res.status).toBe(200);
  });
});

describe('endpoint 21: errors', () => {
  it('401 invalid_client for a wrong secret, an unknown client, or missing credentials', async () => {
    const { app } = setup();
    const p = await provision(app, 'acme');
    const cases = [
      `client_id=${p.clientId}&client_secret=wrong`,
      `client_id=nobody&client_secret=${encodeURIComponent(p.clientSecret)}`,
      `client_id=${p.clientId}`,
      '',
    ];
    for (const body of cases) {
      const res = await call(app, 'POST', TOKEN, { body, headers: FORM });
      // spec: "Invalid or disabled credentials: 401 with JSON body error = invalid_client and error_description"
      expect(res.status, body).toBe(401);
      expect(tokenErrorSchema.parse(res.body).error).toBe('invalid_client');
      expect(typeof (res.body as { error_description: unknown }).error_description).toBe('string');
    }
  });

  it('401 invalid_client for a disabled client, and a token again once re-enabled', async () => {
    const { app } = setup();
    const p = await provision(app, 'acme');
    await control(app, 'POST', `/tenants/acme/api-clients/${p.clientId}/disable`);
    const disabled = await issueToken(app, p.clientId, p.clientSecret);
    expect(disabled.status).toBe(401);
    expect(disabled.body).toMatchObject({ error: 'invalid_client' });
    await control(app, 'POST', `/tenants/acme/api-clients/${p.clientId}/enable`);
    expect((await issueToken(app, p.clientId, p.clientSecret)).status).toBe(200);
  });

  it('refuses JSON and multipart bodies: the form body is the only wire format (400 invalid_request)', async () => {
    const { app } = setup();
    const p = await provision(app, 'acme');
    const json = await call(app, 'POST', TOKEN, { json: { client_id: p.clientId, client_secret: p.clientSecret } });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: 'invalid_request' });
    const form = new FormData();
    form.set('client_id', p.clientId);
    form.set('client_secret', p.clientSecret);
    const multipart = await app.request(TOKEN, { method: 'POST', body: form });
    expect(multipart.status).toBe(400);
    expect(await multipart.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses credentials in the query string, even with a valid form body', async () => {
    // spec: "credentials are in the form body, never in the query string"
    const { app } = setup();
    const p = await provision(app, 'acme');
    const query = new URLSearchParams({ client_id: p.clientId, client_secret: p.clientSecret });
    const res = await call(app, 'POST', `${TOKEN}?${query}`, { body: query.toString(), headers: FORM });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
  });

  it('503 server_error when the token service has no signing key', async () => {
    // spec: "When the token service is not configured (server-side signing key missing): 503 with error = server_error"
    const { app } = setup({ tokenServiceDisabled: true });
    await control(app, 'POST', '/tenants', { id: 'acme' });
    const client = await control<{ client_id: string; client_secret: string }>(
      app,
      'POST',
      '/tenants/acme/api-clients',
      { name: 'x' },
    );
    const res = await issueToken(app, client.body.client_id, client.body.client_secret);
    expect(res.status).toBe(503);
    expect(tokenErrorSchema.parse(res.body)).toMatchObject({ error: 'server_error' });
    expect((res.body as unknown as { error_description: string }).error_description).toMatch(/signing key/);
  });

  it('413 invalid_request for an oversized form', async () => {
    const { app } = setup({ bodyLimitBytes: 2048 });
    const res = await call(app, 'POST', TOKEN, {
      body: `client_id=${'x'.repeat(5000)}&client_secret=y`,
      headers: FORM,
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
  });
});

describe('endpoint 21: security', () => {
  it('an OAuth2 (option B) client cannot use endpoint 21', async () => {
    const { app } = setup();
    await provision(app, 'acme');
    const oauth = await control<{ client_id: string; client_secret: string }>(
      app,
      'POST',
      '/tenants/acme/oauth-clients',
      { audience: 'https://wms' },
    );
    const res = await issueToken(app, oauth.body.client_id, oauth.body.client_secret);
    expect(res.status).toBe(401);
  });

  it('never echoes the secret, and answers an unknown client like a wrong secret', async () => {
    const { app } = setup();
    const p = await provision(app, 'acme');
    const wrong = await call(app, 'POST', TOKEN, {
      body: `client_id=${p.clientId}&client_secret=s3cr3t-guess`,
      headers: FORM,
    });
    const unknown = await call(app, 'POST', TOKEN, {
      body: 'client_id=ghost&client_secret=s3cr3t-guess',
      headers: FORM,
    });
    expect(JSON.stringify(wrong.body)).not.toContain('s3cr3t-guess');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('a regenerated secret replaces the old one at once', async () => {
    // spec: "regenerate secret (the old secret stops working immediately)"
    const { app } = setup();
    const p = await provision(app, 'acme');
    const regenerated = await control<{ client_secret: string }>(
      app,
      'POST',
      `/tenants/acme/api-clients/${p.clientId}/regenerate-secret`,
    );
    expect(regenerated.status).toBe(200);
    expect((await issueToken(app, p.clientId, p.clientSecret)).status).toBe(401);
    expect((await issueToken(app, p.clientId, regenerated.body.client_secret)).status).toBe(200);
  });

  it('a deleted client gets no token', async () => {
    const { app } = setup();
    const p = await provision(app, 'acme');
    expect((await control(app, 'DELETE', `/tenants/acme/api-clients/${p.clientId}`)).status).toBe(204);
    expect((await issueToken(app, p.clientId, p.clientSecret)).status).toBe(401);
  });
});
