import { describe, expect, it } from 'vitest';
import { conflictObjectSchema } from '../../src/wms/index.js';
import { API, call, expectBadRequestObject, provision, setup } from './support.js';

// spec: "Bad-request object ... used for 400, 404 and some 500 responses"; "Conflict/500 object
// (BadRequestAlertException)". Malformed JSON and wrong content types are 400 with the bad-request object.
describe('request problems answer the spec bodies', () => {
  it('malformed JSON → 400 bad-request object', async () => {
    const { app } = setup();
    const { token } = await provision(app, 'acme');
    const res = await call(app, 'POST', `${API}/product`, {
      token,
      body: '{"externalCode": "A",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(expectBadRequestObject(res.body, 400)).toMatchObject({
      entityName: 'product',
      title: 'Malformed JSON in request body',
    });
  });

  it('wrong or missing content type → 400 bad-request object', async () => {
    const { app } = setup();
    const { token } = await provision(app, 'acme');
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      {},
    ] as Record<string, string>[]) {
      const res = await call(app, 'POST', `${API}/delivery-point`, {
        token,
        body: '{"externalCode":"A","active":true,"name":"n"}',
        headers,
      });
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expectBadRequestObject(res.body, 400);
    }
  });

  it('an empty body → 400 bad-request object; an empty object → 400 naming the required members', async () => {
    const { app } = setup();
    const { token } = await provision(app, 'acme');
    const empty = await call(app, 'POST', `${API}/document`, {
      token,
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expectBadRequestObject(empty.body, 400);
    const res = await call(app, 'POST', `${API}/document`, { token, json: {} });
    expect(res.status).toBe(400);
    expect(expectBadRequestObject(res.body, 400).title).toMatch(/externalCode.*documentNumber.*documentType/);
  });

  it('an oversized body → 413 in the bad-request object shape, and nothing stored', async () => {
    const { app } = setup({ bodyLimitBytes: 4096 });
    const { token } = await provision(app, 'acme');
    const res = await call(app, 'POST', `${API}/product`, {
      token,
      json: { externalCode: 'BIG', description: 'x'.repeat(10_000) },
    });
    expect(res.status).toBe(413);
    expect(expectBadRequestObject(res.body, 413).errorKey).toBe('payloadtoolarge');
    expect((await call(app, 'GET', `${API}/product/BIG`, { token })).status).toBe(404);
  });

  it('a body whose Content-Length is over the limit → 413 from the header alone; one at the limit is read', async () => {
    const { app } = setup({ bodyLimitBytes: 4096 });
    const { token } = await provision(app, 'acme');
    const big = JSON.stringify({ externalCode: 'BIG2', description: 'x'.repeat(10_000) });
    const res = await call(app, 'POST', `${API}/product`, {
      token,
      json: JSON.parse(big),
      headers: { 'content-length': String(Buffer.byteLength(big)) },
    });
    expect(res.status).toBe(413);
    expect(expectBadRequestObject(res.body, 413).errorKey).toBe('payloadtoolarge');
    const fits = JSON.stringify({ externalCode: 'FITS', description: 'x'.repeat(100) });
    const ok = await call(app, 'POST', `${API}/product`, {
      token,
      json: JSON.parse(fits),
      headers: { 'content-length': String(Buffer.byteLength(fits)) },
    });
    expect(ok.status).toBeLessThan(300);
  });

  it('an unknown path under the API → 404 bad-request object (after authentication)', async () => {
    const { app } = setup();
    const { token } = await provision(app, 'acme');
    expect((await call(app, 'GET', `${API}/warehouse`)).status).toBe(401);
    const res = await call(app, 'GET', `${API}/warehouse`, { token });
    expect(res.status).toBe(404);
    expectBadRequestObject(res.body, 404);
  });

  it('an internal failure → 500 conflict object, with no stack trace and no internal message', async () => {
    const { app, emulator } = setup();
    const { token } = await provision(app, 'acme');
    emulator.close(); // the database goes away under the running app
    const res = await call(app, 'GET', `${API}/product/P1`, { token });
    expect(res.status).toBe(500);
    const body = conflictObjectSchema.parse(res.body);
    expect(body).toMatchObject({
      status: { statusCode: 500, reasonPhrase: 'Internal Server Error' },
      title: 'Internal server error',
      stackTrace: [],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/database|sqlite|\.ts:|at /i);
  });
});
