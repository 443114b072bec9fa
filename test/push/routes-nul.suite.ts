import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_QUEUE } from '../../src/push/job/queue.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { code, document, erp, product } from './support.js';

/**
 * U+0000 in a string: Postgres text and jsonb cannot hold it (SQLite can), so it is refused with a
 * 400 naming the field on both backends, instead of a 500 on one and a stored record on the other.
 */
export function routesNulSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`ERP API: the NUL character (${dialect})`, () => {
    const acme = testConnection('acme');
    let svc: TestService;
    const queued = async () => (await svc.deps.queue.counts(PUSH_QUEUE)).created;

    beforeAll(async () => {
      svc = await startTestService({ label: 'routes-nul', dialect, connections: [acme] });
    });
    afterAll(async () => svc.close());

    it('PUT with NUL in a field → 400 naming it; nothing stored, nothing queued', async () => {
      const p = code('P');
      const before = await queued();
      const res = await erp(svc.app, acme, 'PUT', `/erp/v1/products/${p}`, {
        json: product(p, { description: 'Olive\u0000oil' }),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: 'validation_failed',
        details: [{ path: 'description' }],
      });
      expect(res.body.message).toMatch(/description: .*U\+0000/);
      expect(await svc.deps.store.pushes.get('acme', 'product', p)).toBeUndefined();
      expect(await queued()).toBe(before);
    });

    it('PUT, GET, retry and cancel with NUL in the path code → 400 naming externalCode', async () => {
      const bad = `A${encodeURIComponent('\u0000')}B`;
      const answers = [
        await erp(svc.app, acme, 'PUT', `/erp/v1/products/${bad}`, { json: product('A\u0000B') }),
        await erp(svc.app, acme, 'GET', `/erp/v1/products/${bad}`),
        await erp(svc.app, acme, 'POST', `/erp/v1/delivery-points/${bad}/retry`),
        await erp(svc.app, acme, 'POST', `/erp/v1/documents/${bad}/cancel`, {
          json: { documentType: 'PURCHASE_ORDER' },
        }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          success: false,
          error: 'validation_failed',
          details: [{ path: 'externalCode' }],
        });
      }
    });

    it('a batch reports the item with NUL as invalid and stores the others', async () => {
      const [good, bad] = [code('P'), code('P')];
      const res = await erp(svc.app, acme, 'POST', '/erp/v1/documents:batch', {
        json: { items: [document(good, ['P1']), document(bad, ['P1'], { observations: 'x\u0000' })] },
      });
      expect(res.status).toBe(202);
      expect(res.body.summary).toEqual({ queued: 1, unchanged: 0, invalid: 1 });
      expect(res.body.results[1]).toMatchObject({
        externalCode: bad,
        result: 'invalid',
        errors: [{ path: 'observations' }],
      });
      expect(await svc.deps.store.pushes.get('acme', 'document', good)).toBeDefined();
    });
  });
}
