import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookLogEntry } from '../../src/emulator/index.js';
import { gate, type Receiver, type Reply, startReceiver } from './receiver.js';
import { control } from './support.js';
import { createDocument, ok, warehouseTenant } from './warehouse-support.js';

const T = '/tenants/acme';
type Env = Awaited<ReturnType<typeof warehouseTenant>>;

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(reply?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(reply);
  receivers.push(r);
  return r;
}

async function configure(env: Env, url: string, extra: Record<string, unknown> = {}) {
  await ok(env.app, 'PUT', `${T}/webhooks`, {
    receptionCloseUrl: `${url}/rc`,
    stockRegularizationUrl: `${url}/stock`,
    username: 'u',
    password: 'p',
    ...extra,
  });
}

/** Receives P1 ×3 against PO-1 and closes the reception; answers the closing document code. */
async function closeReception(
  env: Env,
  externalCode = 'PO-1',
): Promise<{ receptionCode: string; closingDocumentCode: string; webhookId: number }> {
  await createDocument(env.app, env.token, {
    externalCode,
    documentType: 'PURCHASE_ORDER',
    lines: [{ lineNumber: 1, quantity: 3, productExternalCode: 'P1' }],
  });
  const { receptionCode } = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, {
    documents: [externalCode],
  });
  await ok(env.app, 'POST', `${T}/receptions/${receptionCode}/lines`, { productExternalCode: 'P1', quantity: 3 });
  const closed = await ok<{ closingDocuments: { closingDocumentCode: string }[]; webhookIds: number[] }>(
    env.app,
    'POST',
    `${T}/receptions/${receptionCode}/close`,
  );
  return {
    receptionCode,
    closingDocumentCode: closed.closingDocuments[0]!.closingDocumentCode,
    webhookId: closed.webhookIds[0]!,
  };
}

const log = (env: Env, query = '') => ok<WebhookLogEntry[]>(env.app, 'GET', `${T}/webhook-log${query}`);
const integration = async (env: Env, receptionCode: string) =>
  await ok<{ status: string; closingDocuments: { integration: { status: string; message: string | null } }[] }>(
    env.app,
    'GET',
    `${T}/receptions/${receptionCode}`,
  );

describe('webhook outcomes in the log', () => {
  it('spec: "To reject a close document, the receiver returns success = false and message": the integration fails with that message', async () => {
    const env = await warehouseTenant();
    const r = await receiver(() => ({ status: 200, body: { success: false, message: 'Unknown supplier SUP-1' } }));
    await configure(env, r.url);
    const { receptionCode, closingDocumentCode } = await closeReception(env);
    const delivery = await env.emulator.state.webhooks.waitFor(
      'acme',
      (d) => d.closingDocumentCode === closingDocumentCode && d.status !== 'pending',
    );
    expect(delivery).toMatchObject({
      kind: 'reception-close',
      cause: 'event',
      attempt: 1,
      status: 'failed',
      resendable: true,
      error: 'success:false: Unknown supplier SUP-1',
      response: { status: 200, body: { success: false, message: 'Unknown supplier SUP-1' } },
      request: {
        method: 'POST',
        url: `${r.url}/rc`,
        headers: { 'content-type': 'application/json', authorization: 'Basic ***' },
      },
    });
    expect(delivery.durationMs).toBeGreaterThanOrEqual(0);
    expect((delivery.request.body as { closingDocumentCode: string }).closingDocumentCode).toBe(closingDocumentCode);
    await env.emulator.state.webhooks.settled('acme');
    expect(await integration(env, receptionCode)).toMatchObject({
      status: 'CLOSED',
      closingDocuments: [{ integration: { status: 'failed', message: 'Unknown supplier SUP-1' } }],
    });
  });

  it('spec: "Any non-2xx response is a failure"; a 2xx without body acknowledges', async () => {
    const env = await warehouseTenant();
    const replies: Reply[] = [
      { status: 500, body: { error: 'boom' } },
      { status: 302 },
      { status: 204 },
      { status: 202, body: 'accepted' },
    ];
    const r = await receiver(() => replies.shift()!);
    await configure(env, r.url);
    for (const code of ['PO-1', 'PO-2', 'PO-3', 'PO-4']) await closeReception(env, code);
    await env.emulator.state.webhooks.settled('acme');
    expect((await log(env)).map((d) => [d.status, d.response?.status, d.error])).toEqual([
      ['failed', 500, 'HTTP 500'],
      ['failed', 302, 'HTTP 302'],
      ['succeeded', 204, null],
      ['succeeded', 202, null],
    ]);
    expect((await log(env, '?status=failed')).map((d) => d.response?.status)).toEqual([500, 302]);
  });

  it('spec: "respond within 45 seconds": a receiver slower than the timeout (here 150 ms, configurable) is a failure; so is a refused connection', async () => {
    const env = await warehouseTenant();
    const r = await receiver(() => 'hang');
    await configure(env, r.url, { timeoutMs: 150 });
    const { closingDocumentCode } = await closeReception(env);
    const timedOut = await env.emulator.state.webhooks.waitFor('acme', (d) => d.status === 'failed');
    expect(timedOut).toMatchObject({ closingDocumentCode, error: 'timeout after 150 ms', response: null });
    expect(timedOut.durationMs).toBeGreaterThanOrEqual(150);
    expect(r.received).toHaveLength(1);

    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    await configure(env, `http://127.0.0.1:${closedPort}`);
    await closeReception(env, 'PO-2');
    const refused = await env.emulator.state.webhooks.waitFor(
      'acme',
      (d) => d.status === 'failed' && d.id !== timedOut.id,
    );
    expect(refused.error).toBe('request failed: ECONNREFUSED');
    expect(await ok(env.app, 'GET', `${T}/webhooks`)).toMatchObject({ timeoutMs: 45_000 });
  });

  it('webhooks happen after the action returns, and each finished one is announced on state.events', async () => {
    const env = await warehouseTenant();
    const held = gate();
    const r = await receiver(async () => (await held.promise, { status: 200 }));
    await configure(env, r.url);
    const seen: WebhookLogEntry[] = [];
    env.emulator.state.events.on('webhook', (d) => seen.push(d));
    const { webhookId } = await closeReception(env);
    expect((await log(env, '?status=pending')).map((d) => d.id)).toEqual([webhookId]);
    const pendingNow = await control<{ settled: boolean; pending: number }>(
      env.app,
      'POST',
      `${T}/webhook-log/settle`,
      { timeoutMs: 50 },
    );
    expect(pendingNow.body).toEqual({ settled: false, pending: 1 });
    held.open();
    const settled = await control<{ settled: boolean; pending: number }>(env.app, 'POST', `${T}/webhook-log/settle`);
    expect(settled.body).toEqual({ settled: true, pending: 0 });
    expect(seen.map((d) => [d.id, d.status])).toEqual([[webhookId, 'succeeded']]);
  });
});

describe('re-send (spec: failed close documents are re-sent; failed stock regularizations are not)', () => {
  it('re-sends a failed close document with the same closingDocumentCode and body, to the URL configured now', async () => {
    const env = await warehouseTenant();
    const r = await receiver(() => ({ status: 503 }));
    await configure(env, r.url);
    const { receptionCode, closingDocumentCode, webhookId } = await closeReception(env);
    await env.emulator.state.webhooks.settled('acme');
    const fixed = await receiver();
    await configure(env, fixed.url);
    const resent = await control<WebhookLogEntry>(env.app, 'POST', `${T}/webhook-log/${webhookId}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({
      cause: 'resend',
      originId: webhookId,
      status: 'pending',
      closingDocumentCode,
      request: { url: `${fixed.url}/rc` },
    });
    await env.emulator.state.webhooks.settled('acme');
    expect(fixed.received).toHaveLength(1);
    expect(fixed.received[0]!.text).toBe(r.received[0]!.text);
    expect((fixed.received[0]!.body as { closingDocumentCode: string }).closingDocumentCode).toBe(closingDocumentCode);
    expect(await integration(env, receptionCode)).toMatchObject({
      closingDocuments: [{ integration: { status: 'succeeded', message: null } }],
    });
    expect((await log(env, `?closingDocumentCode=${closingDocumentCode}`)).map((d) => [d.cause, d.status])).toEqual([
      ['event', 'failed'],
      ['resend', 'succeeded'],
    ]);
  });

  it('spec: "A failed stock regularization webhook … cannot be re-sent": 409, and nothing is sent again', async () => {
    const env = await warehouseTenant();
    const r = await receiver(() => ({ status: 500 }));
    await configure(env, r.url);
    const { webhookIds } = await ok<{ webhookIds: number[] }>(env.app, 'POST', `${T}/stock/regularizations`, {
      productExternalCode: 'P1',
      quantity: 1,
    });
    await env.emulator.state.webhooks.settled('acme');
    expect((await log(env))[0]).toMatchObject({ kind: 'stock-regularization', status: 'failed', resendable: false });
    const res = await control(env.app, 'POST', `${T}/webhook-log/${webhookIds[0]}/resend`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'not_resendable' });
    await env.emulator.state.webhooks.settled('acme');
    expect(r.received).toHaveLength(1);
  });

  it("refuses to re-send a webhook that did not fail (409), an unknown one or another tenant's (404)", async () => {
    const env = await warehouseTenant();
    const r = await receiver();
    await configure(env, r.url);
    const { webhookId } = await closeReception(env);
    await env.emulator.state.webhooks.settled('acme');
    expect((await control(env.app, 'POST', `${T}/webhook-log/${webhookId}/resend`)).body).toMatchObject({
      error: 'not_failed',
    });
    expect((await control(env.app, 'POST', `${T}/webhook-log/999999/resend`)).status).toBe(404);
    await ok(env.app, 'POST', '/tenants', { id: 'other' });
    expect((await control(env.app, 'POST', `/tenants/other/webhook-log/${webhookId}/resend`)).status).toBe(404);
    expect((await control(env.app, 'GET', `/tenants/other/webhook-log/${webhookId}`)).status).toBe(404);
    expect((await control(env.app, 'GET', `${T}/webhook-log/${webhookId}`)).body).toMatchObject({
      id: webhookId,
      status: 'succeeded',
    });
  });
});

describe("optional automatic retries and duplicate webhooks (for receivers' idempotency)", () => {
  it('retries a failed close document up to `retries` times; never a stock regularization, never a success:false', async () => {
    const env = await warehouseTenant();
    let calls = 0;
    const r = await receiver((req) =>
      req.path === '/rc' && ++calls <= 2 ? { status: 502 } : req.path === '/rc' ? { status: 200 } : { status: 500 },
    );
    await configure(env, r.url, { retries: 2, retryDelayMs: 5 });
    const { receptionCode, closingDocumentCode } = await closeReception(env);
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 1 });
    await env.emulator.state.webhooks.settled('acme');
    const attempts = await log(env, `?closingDocumentCode=${closingDocumentCode}`);
    expect(attempts.map((d) => [d.cause, d.attempt, d.status, d.originId === null ? null : 'origin'])).toEqual([
      ['event', 1, 'failed', null],
      ['retry', 2, 'failed', 'origin'],
      ['retry', 3, 'succeeded', 'origin'],
    ]);
    expect(new Set(r.received.filter((q) => q.path === '/rc').map((q) => q.text)).size).toBe(1);
    expect((await integration(env, receptionCode)).closingDocuments[0]!.integration.status).toBe('succeeded');
    expect((await log(env, '?kind=stock-regularization')).map((d) => d.status)).toEqual(['failed']);

    r.answer(() => ({ status: 200, body: { success: false, message: 'no' } }));
    const rejected = await closeReception(env, 'PO-2');
    await env.emulator.state.webhooks.settled('acme');
    expect((await log(env, `?closingDocumentCode=${rejected.closingDocumentCode}`)).map((d) => d.cause)).toEqual([
      'event',
    ]);
  });

  it('sends each successful webhook `duplicates` more times, identical', async () => {
    const env = await warehouseTenant();
    const r = await receiver();
    await configure(env, r.url, { duplicates: 2 });
    const { closingDocumentCode } = await closeReception(env);
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 1 });
    await env.emulator.state.webhooks.settled('acme');
    // duplicates are queued when the original succeeds, so they follow what was queued before then
    for (const path of ['/rc', '/stock']) {
      const copies = r.received.filter((q) => q.path === path);
      expect(copies, path).toHaveLength(3);
      expect(new Set(copies.map((q) => q.text)).size, path).toBe(1);
    }
    expect((await log(env, `?closingDocumentCode=${closingDocumentCode}`)).map((d) => d.cause)).toEqual([
      'event',
      'duplicate',
      'duplicate',
    ]);
  });
});

describe('PUT/GET /_emulator/tenants/{tenant}/webhooks', () => {
  it('keeps the password to itself and validates every member', async () => {
    const env = await warehouseTenant();
    const put = await ok(env.app, 'PUT', `${T}/webhooks`, {
      receptionCloseUrl: 'https://erp.example/hooks/rc',
      username: 'u',
      password: 'very-secret',
    });
    expect(put).toEqual({
      receptionCloseUrl: 'https://erp.example/hooks/rc',
      clientReturnCloseUrl: null,
      shippingOrderCloseUrl: null,
      supplierReturnCloseUrl: null,
      stockRegularizationUrl: null,
      username: 'u',
      passwordSet: true,
      company: null,
      timeoutMs: 45_000,
      retries: 0,
      retryDelayMs: 1000,
      duplicates: 0,
    });
    expect(JSON.stringify(await ok(env.app, 'GET', `${T}/webhooks`))).not.toContain('very-secret');
    for (const body of [
      { receptionCloseUrl: 'ftp://x/y' },
      { receptionCloseUrl: 'not a url' },
      { username: 'u' },
      { password: 'p' },
      { timeoutMs: 0 },
      { retries: 11 },
      { duplicates: -1 },
      { receptionCloseURL: 'https://x' },
      // Credentials in a URL would be shown by GET and the webhook log, and fetch refuses such URLs anyway.
      { stockRegularizationUrl: 'https://wms-demo:very-secret@erp.example/hooks/stock' },
    ]) {
      const res = await control(env.app, 'PUT', `${T}/webhooks`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request' });
    }
    expect((await control(env.app, 'PUT', '/tenants/nope/webhooks', {})).status).toBe(404);
    expect((await control(env.app, 'GET', `${T}/webhook-log?status=lost`)).status).toBe(400);
  });
});
