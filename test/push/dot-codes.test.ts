import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOT_SEGMENT_MESSAGE } from '../../src/wms/index.js';
import { WmsError } from '../../src/wms-client/index.js';
import { type PushHarness, startPushHarness, wmsGet } from './push-harness.js';
import { deliveryPoint, document, erp, product } from './support.js';

/**
 * Codes "." and "..": every URL parser removes dot-segments (RFC 3986 §5.2.4; WHATWG URL also
 * reads %2E as a dot), so GET /product/.. reached /api/external/v1/ and the push failed with a
 * wrong message. Decision (src/wms/paths.ts): refused at intake with 400, never sent in a URL.
 */
describe('codes "." and ".." (real emulator)', () => {
  let h: PushHarness;

  beforeAll(async () => {
    h = await startPushHarness('dot-codes', 'sqlite');
  });
  afterAll(() => h.close());

  it('why: a dot-segment sent as a code reaches another URL of the WMS, even percent-encoded', async () => {
    const before = h.proxy.requests.length;
    await fetch(`${h.proxy.url}/api/external/v1/product/%2E%2E`);
    const paths = h.proxy.requests.slice(before).map((r) => r.path);
    expect(paths).toContain('/api/external/v1/');
    expect(paths.filter((p) => p.includes('product'))).toEqual([]);
  });

  it('in a URL path they never reach the ERP API as a code (the URL resolves them: 404)', async () => {
    const res = await erp(h.svc.app, h.acme, 'PUT', '/erp/v1/products/%2E%2E', { json: product('..') });
    expect(res.status).toBe(404);
  });

  it('as the code of a batch item → invalid, naming externalCode; nothing stored', async () => {
    for (const [kind, body] of [
      ['products', product('..')],
      ['delivery-points', deliveryPoint('.')],
      ['documents', document('..', ['P1'])],
    ] as const) {
      const res = await erp(h.svc.app, h.acme, 'POST', `/erp/v1/${kind}:batch`, { json: { items: [body] } });
      expect(res.body.summary, kind).toEqual({ queued: 0, unchanged: 0, invalid: 1 });
      expect(res.body.results[0]).toMatchObject({
        result: 'invalid',
        errors: [{ path: 'externalCode', message: DOT_SEGMENT_MESSAGE }],
      });
    }
    expect(await h.svc.deps.store.pushes.list({ connection: 'acme', limit: 10 })).toEqual([]);
  });

  it('a document referencing a product or delivery point ".." → 400 naming each; a batch item with that code is invalid', async () => {
    const res = await erp(h.svc.app, h.acme, 'PUT', '/erp/v1/documents/DOC-DOTS', {
      json: document('DOC-DOTS', ['OK-1', '..'], { deliveryPointExternalCode: '.' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([
      'lines[1].productExternalCode',
      'deliveryPointExternalCode',
    ]);

    const batch = await erp(h.svc.app, h.acme, 'POST', '/erp/v1/products:batch', {
      json: { items: [product('.'), product('FINE-1')] },
    });
    expect(batch.body.summary).toEqual({ queued: 1, unchanged: 0, invalid: 1 });
    expect(batch.body.results[0]).toMatchObject({
      result: 'invalid',
      errors: [{ path: 'externalCode', message: DOT_SEGMENT_MESSAGE }],
    });
  });

  it('codes that only contain dots ("...", ".x", "A.B") are ordinary codes: pushed, looked up and synced', async () => {
    for (const code of ['...', '.x', 'A.B']) expect(await h.put('products', code, product(code))).toBe(202);
    for (const code of ['...', '.x', 'A.B']) expect((await h.settled('product', code)).state).toBe('synced');
    expect(await h.put('documents', 'DOC-DOTTED', document('DOC-DOTTED', ['...', '.x', 'A.B']))).toBe(202);
    expect((await h.settled('document', 'DOC-DOTTED')).state).toBe('synced');
    expect((await wmsGet(h, `/product/${encodeURIComponent('...')}`)).body).toMatchObject({ externalCode: '...' });
  });

  it('the client never sends a dot-segment: a non-retryable error naming the code, and no request', async () => {
    const before = h.proxy.requests.length;
    const client = h.svc.deps.wms.get(h.acme);
    const failure = await client.products.get('..').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WmsError);
    expect(failure).toMatchObject({ kind: 'invalid-request', retryable: false, operation: 'getProduct' });
    expect((failure as WmsError).message).toContain('externalCode ".." must not be');
    expect(h.proxy.requests.length).toBe(before);
  });
});
