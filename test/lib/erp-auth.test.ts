import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { connectionRegistry } from '../../src/lib/connection-registry.js';
import { type ErpEnv, erpAuth } from '../../src/lib/erp-auth.js';
import { onError } from '../../src/lib/http.js';
import { testConnection } from '../support/service.js';

describe('ERP bearer authentication', () => {
  const a = testConnection('a');
  const b = testConnection('b');
  const app = new Hono<ErpEnv>();
  app.onError(onError);
  app.use('*', erpAuth(connectionRegistry([a, b])));
  app.get('/whoami', (c) => c.json({ connection: c.get('connection').name }));

  it('selects the connection from the token', async () => {
    for (const c of [a, b]) {
      const res = await app.request('/whoami', { headers: { authorization: `Bearer ${c.erpApiToken}` } });
      expect(await res.json()).toEqual({ connection: c.name });
    }
  });

  it.each([
    ['no header', undefined, 'Missing bearer token'],
    ['another scheme', 'Basic abc', 'Missing bearer token'],
    ['an empty token', 'Bearer ', 'Missing bearer token'],
    ['a wrong token', 'Bearer not-the-token', 'Invalid bearer token'],
    ['a token with a suffix', `Bearer ${a.erpApiToken}x`, 'Invalid bearer token'],
  ])('refuses %s with 401 and a challenge', async (_label, header, message) => {
    const res = await app.request('/whoami', header ? { headers: { authorization: header } } : {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="wms-sync ERP API"/);
    expect(await res.json()).toMatchObject({ success: false, error: 'unauthorized', message });
  });
});
