import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_QUEUE } from '../../src/push/job/queue.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { code, document, erp, product } from './support.js';

// GET, cancel and retry, and the OpenAPI document; sync states are set through the store here
// (the pushes themselves are covered against the emulator in push.*.test.ts).
describe('ERP API: sync state, cancel, retry', () => {
  const acme = testConnection('acme');
  const other = testConnection('other');
  let svc: TestService;
  const at = new Date('2026-02-01T10:00:00Z');
  const queued = async () => (await svc.deps.queue.counts(PUSH_QUEUE)).created;

  beforeAll(async () => {
    svc = await startTestService({ label: 'routes-state', connections: [acme, other] });
  });
  afterAll(async () => svc.close());

  describe('GET /erp/v1/{kind}/{externalCode}', () => {
    it('shows a failed record with the WMS error body, its attempts and when it was last pushed', async () => {
      const p = code('P');
      await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, { json: product(p) });
      const record = (await svc.deps.store.pushes.get('acme', 'product', p))!;
      await svc.deps.store.pushes.recordAttempt(record.id, at);
      const wms = {
        status: 400,
        message: 'Product SKU already exists',
        body: { title: 'Product SKU already exists', status: '400' },
      };
      await svc.deps.store.pushes.markFailed(record.id, wms, at);
      const res = await erp(svc.app, acme, 'GET', `/erp/v1/products/${p}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        state: 'failed',
        inSync: false,
        attempts: 1,
        lastPushedAt: at.toISOString(),
        lastError: wms,
      });
    });

    it('shows what a document waits for, and its cancel', async () => {
      const d = code('DOC');
      await erp(svc.app, acme, 'PUT', `/erp/v1/documents/${d}`, { json: document(d, ['P-NOT-YET']) });
      const record = (await svc.deps.store.pushes.get('acme', 'document', d))!;
      await svc.deps.store.pushes.setWaits(record.id, 'acme', [{ entity: 'product', externalCode: 'P-NOT-YET' }], at);
      const res = await erp(svc.app, acme, 'GET', `/erp/v1/documents/${d}`);
      expect(res.body).toMatchObject({
        state: 'pending',
        waitingFor: [{ entity: 'product', externalCode: 'P-NOT-YET', since: at.toISOString() }],
        cancel: null,
      });
      await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/cancel`);
      expect((await erp(svc.app, acme, 'GET', `/erp/v1/documents/${d}`)).body.cancel).toMatchObject({
        entity: 'document-cancel',
        state: 'pending',
        payload: { externalCode: d, documentType: 'CLIENT_EXPEDITION' },
      });
    });

    it('404 for a code never sent, or sent on another connection; 401 without a token', async () => {
      const p = code('P');
      expect((await erp(svc.app, acme, 'GET', `/erp/v1/products/${p}`)).body).toMatchObject({
        success: false,
        error: 'not_found',
      });
      await erp(svc.app, other, 'PUT', `/erp/v1/products/${p}`, { json: product(p) });
      expect((await erp(svc.app, acme, 'GET', `/erp/v1/products/${p}`)).status).toBe(404);
      expect((await erp(svc.app, null, 'GET', `/erp/v1/products/${p}`)).status).toBe(401);
    });
  });

  describe('POST /erp/v1/documents/{externalCode}/cancel', () => {
    it('takes the type from the stored document (202), and a repeat is no change (200)', async () => {
      const d = code('DOC');
      await erp(svc.app, acme, 'PUT', `/erp/v1/documents/${d}`, {
        json: document(d, ['P1'], { documentType: 'PURCHASE_ORDER' }),
      });
      const before = await queued();
      const res = await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/cancel`);
      expect(res).toMatchObject({
        status: 202,
        body: { entity: 'document-cancel', payload: { externalCode: d, documentType: 'PURCHASE_ORDER' } },
      });
      expect(await queued()).toBe(before + 1);
      expect(
        (
          await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/cancel`, {
            json: { documentType: 'PURCHASE_ORDER' },
          })
        ).status,
      ).toBe(200);
    });

    it('needs the type for a document wms-sync does not hold, and refuses a type that contradicts it', async () => {
      const unknown = code('DOC');
      expect((await erp(svc.app, acme, 'POST', `/erp/v1/documents/${unknown}/cancel`)).body).toMatchObject({
        error: 'bad_request',
      });
      expect(
        (
          await erp(svc.app, acme, 'POST', `/erp/v1/documents/${unknown}/cancel`, {
            json: { documentType: 'CLIENT_RETURN' },
          })
        ).status,
      ).toBe(202);
      const d = code('DOC');
      await erp(svc.app, acme, 'PUT', `/erp/v1/documents/${d}`, { json: document(d, ['P1']) });
      const contradicted = await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/cancel`, {
        json: { documentType: 'SUPPLIER_RETURN' },
      });
      expect(contradicted.status).toBe(400);
      expect(contradicted.body.message).toContain('CLIENT_EXPEDITION');
    });

    it('400 for an unknown type or broken JSON, 415 for another content type, 401 without a token', async () => {
      const d = code('DOC');
      expect(
        (await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/cancel`, { json: { documentType: 'INVOICE' } })).body
          .error,
      ).toBe('validation_failed');
      expect((await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/cancel`, { body: '{' })).body.error).toBe(
        'malformed_json',
      );
      expect(
        (await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/cancel`, { body: 'x', contentType: 'text/plain' }))
          .status,
      ).toBe(415);
      expect(
        (await erp(svc.app, null, 'POST', `/erp/v1/documents/${d}/cancel`, { json: { documentType: 'CLIENT_RETURN' } }))
          .status,
      ).toBe(401);
      expect(await svc.deps.store.pushes.get('acme', 'document-cancel', d)).toBeUndefined();
    });
  });

  describe('POST /erp/v1/{kind}/{externalCode}/retry', () => {
    it('puts a failed record back to pending with a job (202), and a failed cancel with its document', async () => {
      const d = code('DOC');
      await erp(svc.app, acme, 'PUT', `/erp/v1/documents/${d}`, { json: document(d, ['P1']) });
      await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/cancel`);
      for (const entity of ['document', 'document-cancel'] as const) {
        const r = (await svc.deps.store.pushes.get('acme', entity, d))!;
        await svc.deps.store.pushes.markFailed(r.id, { message: 'boom' }, at);
      }
      const before = await queued();
      const res = await erp(svc.app, acme, 'POST', `/erp/v1/documents/${d}/retry`);
      expect(res.status).toBe(202);
      expect(res.body.retried.map((r: { entity: string; state: string }) => [r.entity, r.state])).toEqual([
        ['document', 'pending'],
        ['document-cancel', 'pending'],
      ]);
      expect(await queued()).toBe(before + 2);
    });

    it('409 while a push of a pending record runs; once the push has failed the record, 202 even before its lease is given back', async () => {
      const p = code('P');
      await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, { json: product(p) });
      const r = (await svc.deps.store.pushes.get('acme', 'product', p))!;
      const now = svc.deps.clock.now();
      expect(await svc.deps.store.pushes.claim(r.id, 'a-pusher', new Date(now.getTime() + 60_000), now)).toBeDefined();
      const running = await erp(svc.app, acme, 'POST', `/erp/v1/products/${p}/retry`);
      expect(running.status).toBe(409);
      expect(running.body.message).toMatch(/being pushed right now/);
      // The push's outcome is known (failed): only the lease is still being given back.
      await svc.deps.store.pushes.markFailed(r.id, { message: 'boom' }, now);
      const retried = await erp(svc.app, acme, 'POST', `/erp/v1/products/${p}/retry`);
      expect(retried.status).toBe(202);
      expect(retried.body.retried[0]).toMatchObject({ state: 'pending' });
      await svc.deps.store.pushes.release(r.id, 'a-pusher');
    });

    it('409 for a synced record, 404 for an unknown one, 401 without a token', async () => {
      const p = code('P');
      await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, { json: product(p) });
      const r = (await svc.deps.store.pushes.get('acme', 'product', p))!;
      await svc.deps.store.pushes.markSynced(r.id, r.payloadHash, at);
      expect((await erp(svc.app, acme, 'POST', `/erp/v1/products/${p}/retry`)).body).toMatchObject({
        error: 'conflict',
        details: { state: 'synced' },
      });
      expect((await erp(svc.app, acme, 'POST', `/erp/v1/delivery-points/${code('DP')}/retry`)).status).toBe(404);
      expect(
        (await erp(svc.app, { erpApiToken: other.erpApiToken }, 'POST', `/erp/v1/products/${p}/retry`)).status,
      ).toBe(404);
      expect((await erp(svc.app, null, 'POST', `/erp/v1/products/${p}/retry`)).status).toBe(401);
    });
  });

  it("guards only its own paths: other /erp/v1 routes (another room's) are not intercepted", async () => {
    expect((await erp(svc.app, null, 'GET', '/erp/v1/no-such-room')).status).toBe(404);
    expect((await erp(svc.app, null, 'GET', '/erp/v1/products/X')).status).toBe(401);
    expect((await erp(svc.app, null, 'POST', '/erp/v1/documents:batch', { json: { items: [] } })).status).toBe(401);
  });

  it('every ERP route is in the OpenAPI document, with the bearer scheme and the spec DTOs', () => {
    const doc = svc.app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'wms-sync', version: '1' } });
    const paths = Object.keys(doc.paths ?? {});
    for (const kind of ['products', 'delivery-points', 'documents']) {
      expect(paths).toEqual(
        expect.arrayContaining([
          `/erp/v1/${kind}/{externalCode}`,
          `/erp/v1/${kind}:batch`,
          `/erp/v1/${kind}/{externalCode}/retry`,
        ]),
      );
    }
    expect(paths).toContain('/erp/v1/documents/{externalCode}/cancel');
    expect(doc.components?.securitySchemes).toHaveProperty('erpBearer');
    expect(doc.components?.schemas).toHaveProperty('RestAPIProductDTO');
    expect(doc.components?.schemas).toHaveProperty('PushRecord');
    const put = (doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[
      '/erp/v1/products/{externalCode}'
    ]!.put!;
    expect(Object.keys(put.responses).sort()).toEqual(['200', '202', '400', '401', '413', '415']);
  });
});
