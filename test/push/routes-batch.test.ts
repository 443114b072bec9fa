import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_QUEUE } from '../../src/push/job/queue.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { code, deliveryPoint, erp, product } from './support.js';

describe('POST /erp/v1/{kind}:batch', () => {
  const acme = testConnection('acme');
  let svc: TestService;
  const queued = async () => (await svc.deps.queue.counts(PUSH_QUEUE)).created;

  beforeAll(async () => {
    svc = await startTestService({ label: 'routes-batch', connections: [acme] });
  });
  afterAll(async () => svc.close());

  describe('happy', () => {
    it('stores and queues the valid items, reports the invalid ones and repeats, item by item', async () => {
      const [a, b, c] = [code('P'), code('P'), code('P')];
      await erp(svc.app, acme, 'PUT', `/erp/v1/products/${c}`, { json: product(c) });
      const before = await queued();
      const res = await erp(svc.app, acme, 'POST', '/erp/v1/products:batch', {
        json: {
          items: [product(a), { externalCode: b, weight: 'x' }, product(c), product(a, { description: 'again' }), 42],
        },
      });
      expect(res.status).toBe(202);
      expect(res.body.summary).toEqual({ queued: 1, unchanged: 1, invalid: 3 });
      expect(res.body.results).toMatchObject([
        { index: 0, externalCode: a, result: 'queued', state: 'pending' },
        { index: 1, externalCode: b, result: 'invalid', errors: [{ path: 'description' }, { path: 'weight' }] },
        { index: 2, externalCode: c, result: 'unchanged', state: 'pending' },
        {
          index: 3,
          externalCode: a,
          result: 'invalid',
          errors: [{ path: 'externalCode', message: 'already given at index 0 of this batch' }],
        },
        { index: 4, externalCode: null, result: 'invalid' },
      ]);
      expect(await queued()).toBe(before + 1);
      expect((await svc.deps.store.pushes.get('acme', 'product', a))?.payload.description).toBe(`Product ${a}`);
      expect(await svc.deps.store.pushes.get('acme', 'product', b)).toBeUndefined();
    });

    it('takes 1,000 delivery points in one request', async () => {
      const items = Array.from({ length: 1000 }, () => deliveryPoint(code('DP')));
      const res = await erp(svc.app, acme, 'POST', '/erp/v1/delivery-points:batch', { json: { items } });
      expect(res.status).toBe(202);
      expect(res.body.summary).toEqual({ queued: 1000, unchanged: 0, invalid: 0 });
      expect(
        await svc.deps.store.pushes.getMany(
          'acme',
          'delivery-point',
          items.map((i) => i.externalCode),
        ),
      ).toHaveLength(1000);
    });

    it('every item gets exactly one result, in order, whatever the mix', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom('valid', 'invalid', 'repeat'), { minLength: 1, maxLength: 12 }),
          async (kinds) => {
            const first = code('P');
            const items = kinds.map((k, i) =>
              k === 'valid'
                ? product(`${first}-${i}`)
                : k === 'repeat'
                  ? product(first)
                  : { externalCode: `${first}-${i}` },
            );
            const res = await erp(svc.app, acme, 'POST', '/erp/v1/products:batch', { json: { items } });
            expect(res.body.results.map((r: { index: number }) => r.index)).toEqual(items.map((_, i) => i));
            const { queued: q, unchanged: u, invalid: n } = res.body.summary;
            expect(q + u + n).toBe(items.length);
          },
        ),
        { numRuns: 25 },
      );
    });
  });

  describe('errors', () => {
    it('400 for more than 1,000 items, for none, and for a body without an items array; nothing stored', async () => {
      const p = code('P');
      const tooMany = await erp(svc.app, acme, 'POST', '/erp/v1/products:batch', {
        json: { items: Array.from({ length: 1001 }, (_, i) => product(`${p}-${i}`)) },
      });
      expect(tooMany).toMatchObject({
        status: 400,
        body: { error: 'validation_failed', details: [{ path: 'items' }] },
      });
      expect(await svc.deps.store.pushes.get('acme', 'product', `${p}-0`)).toBeUndefined();
      expect((await erp(svc.app, acme, 'POST', '/erp/v1/products:batch', { json: { items: [] } })).status).toBe(400);
      expect((await erp(svc.app, acme, 'POST', '/erp/v1/products:batch', { json: [product(p)] })).status).toBe(400);
    });

    it('415 and malformed_json as for single items', async () => {
      expect(
        (await erp(svc.app, acme, 'POST', '/erp/v1/documents:batch', { body: '{}', contentType: 'text/csv' })).status,
      ).toBe(415);
      expect((await erp(svc.app, acme, 'POST', '/erp/v1/documents:batch', { body: '{"items":[' })).body.error).toBe(
        'malformed_json',
      );
    });

    it('404 for a kind the API does not have', async () => {
      expect((await erp(svc.app, acme, 'POST', '/erp/v1/suppliers:batch', { json: { items: [] } })).status).toBe(404);
    });
  });

  describe('security', () => {
    it('401 without the ERP token, and nothing stored', async () => {
      const p = code('P');
      const res = await erp(svc.app, { erpApiToken: 'not-the-token-at-all' }, 'POST', '/erp/v1/products:batch', {
        json: { items: [product(p)] },
      });
      expect(res.status).toBe(401);
      expect(await svc.deps.store.pushes.get('acme', 'product', p)).toBeUndefined();
    });
  });
});
