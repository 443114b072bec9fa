import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_QUEUE } from '../../src/push/job/queue.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { code, deliveryPoint, document, erp, product } from './support.js';

// The intake alone (no worker): what is stored, what is queued, what is refused.
describe('PUT /erp/v1/{kind}/{externalCode}', () => {
  const acme = testConnection('acme');
  const other = testConnection('other');
  let svc: TestService;
  const queued = async () => (await svc.deps.queue.counts(PUSH_QUEUE)).created;

  beforeAll(async () => {
    svc = await startTestService({
      label: 'routes-put',
      connections: [acme, other],
      env: { BODY_LIMIT_BYTES: '4096' },
    });
  });
  afterAll(async () => svc.close());

  describe('happy', () => {
    it('stores a product, queues its push (202), and answers 200 without a job when it is sent unchanged', async () => {
      const p = code('P');
      const before = await queued();
      const first = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, {
        json: product(p, { abbreviation: null }),
      });
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({
        entity: 'product',
        externalCode: p,
        state: 'pending',
        inSync: false,
        attempts: 0,
        lastError: null,
        waitingFor: [],
      });
      // null members are dropped: absent and null mean the same to the WMS.
      expect(first.body.payload).toEqual(product(p));
      expect(await queued()).toBe(before + 1);

      const again = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, { json: product(p) });
      expect(again.status).toBe(200);
      expect(await queued()).toBe(before + 1);

      const changed = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, {
        json: product(p, { description: 'Renamed' }),
      });
      expect(changed.status).toBe(202);
      expect(changed.body.payload.description).toBe('Renamed');
      expect(await queued()).toBe(before + 2);
    });

    it('stores a delivery point and a document with its lines (the DTO the inbound room reads)', async () => {
      const d = code('DP');
      expect((await erp(svc.app, acme, 'PUT', `/erp/v1/delivery-points/${d}`, { json: deliveryPoint(d) })).status).toBe(
        202,
      );
      const doc = code('DOC');
      const res = await erp(svc.app, acme, 'PUT', `/erp/v1/documents/${doc}`, {
        json: document(doc, ['P1', 'P2'], { deliveryPointExternalCode: d }),
      });
      expect(res.status).toBe(202);
      const stored = await svc.deps.store.pushes.get('acme', 'document', doc);
      expect(stored?.payload).toMatchObject({
        documentType: 'CLIENT_EXPEDITION',
        lines: [{ lineNumber: 1, productExternalCode: 'P1' }, { lineNumber: 2 }],
      });
    });

    it('keeps the same code of two connections apart', async () => {
      const p = code('P');
      await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, { json: product(p) });
      const res = await erp(svc.app, other, 'PUT', `/erp/v1/products/${p}`, {
        json: product(p, { description: 'Other tenant' }),
      });
      expect(res.status).toBe(202);
      expect((await svc.deps.store.pushes.get('acme', 'product', p))?.payload.description).toBe(`Product ${p}`);
    });
  });

  describe('errors', () => {
    it('415 for a body that is not JSON, 400 malformed_json for broken JSON', async () => {
      const p = code('P');
      const text = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, {
        body: JSON.stringify(product(p)),
        contentType: 'text/plain',
      });
      expect(text).toMatchObject({ status: 415, body: { success: false, error: 'unsupported_media_type' } });
      const none = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, {
        body: JSON.stringify(product(p)),
        contentType: null,
      });
      expect(none.status).toBe(415);
      const broken = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, { body: '{"externalCode": "x",' });
      expect(broken).toMatchObject({ status: 400, body: { error: 'malformed_json' } });
    });

    it('400 naming each wrong field: missing, wrong type, unknown enum, duplicate set items', async () => {
      const p = code('P');
      const res = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, {
        json: {
          externalCode: p,
          weight: 'heavy',
          handlingUnit: 'BOX',
          barcodes: [
            { code: 'A', type: 'GTIN' },
            { code: 'A', type: 'GTIN' },
          ],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
        'barcodes',
        'description',
        'handlingUnit',
        'weight',
      ]);
      const doc = code('DOC');
      const bad = await erp(svc.app, acme, 'PUT', `/erp/v1/documents/${doc}`, {
        json: {
          externalCode: doc,
          documentNumber: '1',
          documentType: 'INVOICE',
          lines: [{ lineNumber: 1.5, quantity: 1 }],
        },
      });
      expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
        'documentType',
        'lines[0].lineNumber',
        'lines[0].productExternalCode',
      ]);
      expect(await svc.deps.store.pushes.get('acme', 'document', doc)).toBeUndefined();
    });

    it('400 when the body names another code than the path', async () => {
      const res = await erp(svc.app, acme, 'PUT', `/erp/v1/delivery-points/${code('DP')}`, {
        json: deliveryPoint('SOMETHING-ELSE'),
      });
      expect(res).toMatchObject({ status: 400, body: { error: 'bad_request' } });
      expect(res.body.message).toContain('SOMETHING-ELSE');
    });

    it('413 for a body over BODY_LIMIT_BYTES, nothing stored', async () => {
      const p = code('P');
      const res = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, {
        json: product(p, { observations: 'x'.repeat(5000) }),
      });
      expect(res).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
      expect(await svc.deps.store.pushes.get('acme', 'product', p)).toBeUndefined();
    });
  });

  describe('security', () => {
    it('401 with a Bearer challenge without a token, or with a wrong one; nothing stored', async () => {
      const p = code('P');
      const none = await erp(svc.app, null, 'PUT', `/erp/v1/products/${p}`, { json: product(p) });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const wrong = await erp(svc.app, { erpApiToken: `${acme.erpApiToken}x` }, 'PUT', `/erp/v1/products/${p}`, {
        json: product(p),
      });
      expect(wrong.status).toBe(401);
      // Authentication comes before reading the body: a bad body without a token is still a 401.
      expect((await erp(svc.app, null, 'PUT', `/erp/v1/products/${p}`, { body: '{' })).status).toBe(401);
      expect(await svc.deps.store.pushes.get('acme', 'product', p)).toBeUndefined();
    });

    it("a connection's token cannot read or change another connection's record", async () => {
      const p = code('P');
      await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, { json: product(p) });
      expect((await erp(svc.app, other, 'GET', `/erp/v1/products/${p}`)).status).toBe(404);
      await erp(svc.app, other, 'PUT', `/erp/v1/products/${p}`, { json: product(p, { description: 'hijack' }) });
      expect((await erp(svc.app, acme, 'GET', `/erp/v1/products/${p}`)).body.payload.description).toBe(`Product ${p}`);
    });
  });
});
