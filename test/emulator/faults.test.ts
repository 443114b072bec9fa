import { afterEach, describe, expect, it } from 'vitest';
import {
  createEmulator,
  type EmulatorServer,
  startEmulatorServer,
  type WebhookLogEntry,
} from '../../src/emulator/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { badRequestObjectSchema, conflictObjectSchema } from '../../src/wms/index.js';
import { type Receiver, startReceiver } from './receiver.js';
import { expectBadRequestObject } from './support.js';

const servers: EmulatorServer[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const r of receivers.splice(0)) await r.close();
});

/** The demo emulator over real HTTP, with a token of the demo client. */
async function demo(options: { random?: () => number } = {}) {
  const emulator = createEmulator({
    seed: 'demo',
    clock: new ManualClock(new Date('2025-03-01T12:00:00Z')),
    ...options,
  });
  const server = await startEmulatorServer({ emulator });
  servers.push(server);
  const control = async (method: string, path: string, json?: unknown) => {
    const res = await fetch(`${server.url}/_emulator${path}`, {
      method,
      headers: json === undefined ? {} : { 'content-type': 'application/json' },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  };
  const tokenRequest = () =>
    fetch(`${server.url}/api/external/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=demo-client&client_secret=demo-secret',
    });
  const token = async () => ((await (await tokenRequest()).json()) as { access_token: string }).access_token;
  const api = async (path: string, bearer: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/external/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${bearer}`, ...(init.headers ?? {}) },
    });
  return { server, emulator, control, tokenRequest, token, api };
}

describe('POST /_emulator/faults on the API', () => {
  it("answers the status for the next `count` matching requests, in the spec's error shape, then lets them through", async () => {
    const d = await demo();
    const token = await d.token();
    const added = await d.control('POST', '/faults', { path: '/api/external/v1/product*', status: 503, count: 2 });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: expect.any(Number), scope: 'api', status: 503, hits: 0, remaining: 2 });
    const first = await d.api('/product?size=1', token);
    expect(first.status).toBe(503);
    expect(conflictObjectSchema.parse(await first.json())).toMatchObject({
      status: { statusCode: 503 },
      errorKey: 'faultinjected',
    });
    expect((await d.control('GET', '/faults')).body).toMatchObject([{ hits: 1, remaining: 1 }]);
    expect((await d.api('/product-all-external-codes', token)).status).toBe(503);
    expect((await d.api('/product?size=1', token)).status).toBe(200);
    expect((await d.control('GET', '/faults')).body).toEqual([]);
  });

  it('matches the method and the path glob; 4xx answer the bad-request object, 401 with WWW-Authenticate', async () => {
    const d = await demo();
    const token = await d.token();
    await d.control('POST', '/faults', { method: 'post', path: '/api/external/v1/document', status: 400 });
    await d.control('POST', '/faults', { path: '/api/external/v1/delivery-point/**', status: 401, count: 1 });
    expect((await d.api('/document?size=1', token)).status).toBe(200);
    const post = await d.api('/document', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(400);
    expect(expectBadRequestObject(badRequestObjectSchema.parse(await post.json()), 400)).toMatchObject({
      entityName: 'document',
      errorKey: 'faultinjected',
    });
    const unauthorized = await d.api('/delivery-point/SUP-001', token);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect((await d.api('/delivery-point/SUP-001', token)).status).toBe(200);
  });

  it('on the token endpoint the injected error has the token error shape; the control API is never affected', async () => {
    const d = await demo();
    await d.control('POST', '/faults', { path: '**', status: 503 });
    const res = await d.tokenRequest();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'server_error', error_description: 'Injected fault: HTTP 503' });
    expect((await d.control('GET', '/tenants')).status).toBe(200);
    expect((await d.control('DELETE', '/faults')).status).toBe(204);
    expect((await d.tokenRequest()).status).toBe(200);
  });

  it('latencyMs delays the answer; drop closes the connection without one', async () => {
    const d = await demo();
    const token = await d.token();
    await d.control('POST', '/faults', { path: '/api/external/v1/product', latencyMs: 120, count: 1 });
    const started = performance.now();
    expect((await d.api('/product', token)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(120);
    await d.control('POST', '/faults', { path: '/api/external/v1/product', drop: true, count: 1 });
    const dropped = await d.api('/product', token).then(
      () => 'answered',
      (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
    );
    expect(dropped).toBe('UND_ERR_SOCKET');
    expect((await d.api('/product', token)).status).toBe(200);
  });

  it('rate applies the fault to that fraction of matching requests (random source injected)', async () => {
    const draws = [0.1, 0.9, 0.49, 0.5];
    const d = await demo({ random: () => draws.shift() ?? 1 });
    const token = await d.token();
    await d.control('POST', '/faults', { path: '/api/external/v1/product', status: 500, rate: 0.5 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await d.api('/product', token)).status);
    expect(statuses).toEqual([500, 200, 500, 200, 200]);
  });

  it('400 for a fault that does nothing or contradicts itself; DELETE one by id (404 when unknown)', async () => {
    const d = await demo();
    for (const body of [
      { path: '/x' },
      { path: '/x', status: 503, drop: true },
      { path: '/x', status: 200 },
      { path: '/x', latencyMs: -1 },
      { path: '/x', status: 500, rate: 2 },
      { path: '/x', status: 500, count: 0 },
      { scope: 'webhook', path: '/x', status: 500 },
      { path: '', status: 500 },
      { path: '/x', status: 500, colour: 'red' },
    ]) {
      const res = await d.control('POST', '/faults', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
    }
    const { body } = await d.control('POST', '/faults', { path: '/x', status: 500 });
    expect((await d.control('DELETE', `/faults/${String(body!.id)}`)).status).toBe(204);
    expect((await d.control('DELETE', `/faults/${String(body!.id)}`)).status).toBe(404);
  });
});

describe('webhook faults (scope "webhook")', () => {
  it('drop: the webhook is not sent and fails; latencyMs: it is sent later', async () => {
    const d = await demo();
    const receiver = await startReceiver();
    receivers.push(receiver);
    await d.control('PUT', '/tenants/demo/webhooks', { stockRegularizationUrl: `${receiver.url}/hooks/stock` });
    await d.control('POST', '/faults', { scope: 'webhook', path: '/hooks/*', drop: true, count: 1 });
    await d.control('POST', '/faults', { scope: 'webhook', path: '/hooks/stock', latencyMs: 100, count: 1 });
    await d.control('POST', '/tenants/demo/stock/regularizations', { productExternalCode: 'DEMO-001', quantity: 1 });
    await d.control('POST', '/tenants/demo/stock/regularizations', { productExternalCode: 'DEMO-001', quantity: 2 });
    await d.emulator.state.webhooks.settled('demo');
    const log = (await d.control('GET', '/tenants/demo/webhook-log')).body as unknown as WebhookLogEntry[];
    expect(log.map((l) => [l.status, l.error])).toEqual([
      ['failed', 'not sent: dropped by fault injection'],
      ['succeeded', null],
    ]);
    expect(receiver.received.map((r) => (r.body as { quantity: number }).quantity)).toEqual([2]);
  });
});

describe('POST /_emulator/tenants/{tenant}/tokens/expire', () => {
  it('tokens issued before answer 401 "The access token expired"; a new token works', async () => {
    const d = await demo();
    const old = await d.token();
    expect((await d.api('/product-all-external-codes', old)).status).toBe(200);
    expect((await d.control('POST', '/tenants/demo/tokens/expire')).status).toBe(204);
    const refused = await d.api('/product-all-external-codes', old);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error_description="The access token expired"');
    expect((await d.api('/product-all-external-codes', await d.token())).status).toBe(200);
    expect((await d.control('POST', '/tenants/nope/tokens/expire')).status).toBe(404);
  });
});
