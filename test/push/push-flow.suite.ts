import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/wait.js';
import { type PushHarness, startPushHarness, wmsGet, wmsSend } from './push-harness.js';
import { code, deliveryPoint, document, erp, product } from './support.js';

const API = '/api/external/v1';

/** Pushes against the emulator: upserts, change detection, refusals, fixes, cancels, ordering. */
export function pushFlowSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`push jobs against the emulator (${dialect})`, () => {
    let h: PushHarness;
    beforeAll(async () => {
      h = await startPushHarness(`push-flow-${dialect}`, dialect);
    });
    afterAll(async () => h.close());

    it('create, then update, then unchanged: POST once, PUT once, and no second call for the same payload', async () => {
      const p = code('P');
      const posts = () => h.calls('POST', `${API}/product`);
      const puts = () => h.calls('PUT', `${API}/product`);
      const [posts0, puts0] = [posts(), puts()];
      expect(await h.put('products', p, product(p))).toBe(202);
      const created = await h.settled('product', p);
      expect(created).toMatchObject({ state: 'synced', attempts: 1 });
      expect(created.syncedHash).toBe(created.payloadHash);
      expect([posts() - posts0, puts() - puts0]).toEqual([1, 0]);

      expect(await h.put('products', p, product(p, { description: 'Olive oil 75 cl' }))).toBe(202);
      const updated = await h.settled('product', p, (r) => r.state === 'synced' && r.attempts === 2);
      expect(updated.lastPushedAt).not.toBeNull();
      expect((await wmsGet(h, `/product/${p}`)).body.description).toBe('Olive oil 75 cl');
      expect([posts() - posts0, puts() - puts0]).toEqual([1, 1]);

      const callsBefore = h.proxy.requests.length;
      expect(await h.put('products', p, product(p, { description: 'Olive oil 75 cl' }))).toBe(200);
      // Also unchanged when sent again through a batch.
      const batch = await erp(h.svc.app, h.acme, 'POST', '/erp/v1/products:batch', {
        json: { items: [product(p, { description: 'Olive oil 75 cl' })] },
      });
      expect(batch.body.results[0].result).toBe('unchanged');
      const after = (await h.svc.deps.store.pushes.get('acme', 'product', p))!;
      expect(after).toMatchObject({ state: 'synced', attempts: 2 });
      expect(h.proxy.requests.length).toBe(callsBefore);
    });

    it('400 "Product SKU already exists" ends failed with the WMS message and body, not retried', async () => {
      const [a, b] = [code('P'), code('P')];
      await h.put('products', a, product(a, { code: `SKU-${a}` }));
      await h.settled('product', a);
      await h.put('products', b, product(b, { code: `SKU-${a}` }));
      const failed = await h.settled('product', b);
      expect(failed.state).toBe('failed');
      expect(failed.attempts).toBe(1);
      expect(failed.lastError).toMatchObject({
        kind: 'wms',
        status: 400,
        message: 'Product SKU already exists',
        retryable: false,
        body: { title: 'Product SKU already exists' },
      });
      const shown = await erp(h.svc.app, h.acme, 'GET', `/erp/v1/products/${b}`);
      expect(shown.body).toMatchObject({ state: 'failed', lastError: { message: 'Product SKU already exists' } });
      expect((await wmsGet(h, `/product/${b}`)).status).toBe(404);
    });

    it('retry after fixing the data: a corrected PUT, or the retry route once the WMS side is fixed', async () => {
      const [a, b] = [code('P'), code('P')];
      await h.put('products', a, product(a, { code: `SKU-${a}` }));
      await h.settled('product', a);
      await h.put('products', b, product(b, { code: `SKU-${a}` }));
      expect((await h.settled('product', b)).state).toBe('failed');
      // The ERP fixes its data: a new payload goes to pending and through.
      expect(await h.put('products', b, product(b, { code: `SKU-${b}` }))).toBe(202);
      expect((await h.settled('product', b)).state).toBe('synced');
      expect((await wmsGet(h, `/product/${b}`)).body.code).toBe(`SKU-${b}`);

      // The conflict is fixed in the WMS instead (the other product's SKU changes): retry as is.
      const c = code('P');
      await h.put('products', c, product(c, { code: `SKU-${a}` }));
      expect((await h.settled('product', c)).state).toBe('failed');
      await h.put('products', a, product(a, { code: `SKU-${a}-OLD` }));
      await h.settled('product', a, (r) => r.state === 'synced' && r.attempts === 2);
      const retried = await erp(h.svc.app, h.acme, 'POST', `/erp/v1/products/${c}/retry`);
      expect(retried.status).toBe(202);
      expect((await h.settled('product', c)).state).toBe('synced');
      expect((await wmsGet(h, `/product/${c}`)).body.code).toBe(`SKU-${a}`);
    });

    it('upsert: a record the WMS already holds is updated; one the WMS lost is created again', async () => {
      const p = code('P');
      // Created in the WMS by other means: our create is refused (400 productexists), one GET, then the update.
      expect((await wmsSend(h, 'POST', '/product', product(p, { description: 'made elsewhere' }))).status).toBe(200);
      await h.put('products', p, product(p));
      expect(await h.settled('product', p)).toMatchObject({ state: 'synced', attempts: 1 });
      expect((await wmsGet(h, `/product/${p}`)).body.description).toBe(`Product ${p}`);

      const d = code('DP');
      await h.put('delivery-points', d, deliveryPoint(d));
      await h.settled('delivery-point', d);
      // The WMS loses its data (tenant reset): the update is refused (400 idnotfound), one GET, then the create.
      expect((await h.wms.control('POST', '/tenants/acme/reset')).status).toBeLessThan(300);
      await h.put('delivery-points', d, deliveryPoint(d, { name: 'Back again' }));
      expect(await h.settled('delivery-point', d, (r) => r.attempts === 2 && r.state !== 'pending')).toMatchObject({
        state: 'synced',
      });
      expect((await wmsGet(h, `/delivery-point/${d}`)).body.name).toBe('Back again');
    });

    it('a document waits for its products and delivery point, then goes; then an update and a cancel', async () => {
      const [p1, p2, dp, doc] = [code('P'), code('P'), code('DP'), code('SO')];
      expect(await h.put('documents', doc, document(doc, [p1, p2], { deliveryPointExternalCode: dp }))).toBe(202);
      const waiting = await h.settled('document', doc, (r) => r.state === 'pending' && r.attempts === 0, 5000);
      await until(async () => (await h.svc.deps.store.pushes.waitsOf(waiting.id)).length === 3);
      const shown = await erp(h.svc.app, h.acme, 'GET', `/erp/v1/documents/${doc}`);
      expect(shown.body.waitingFor.map((w: { externalCode: string }) => w.externalCode).sort()).toEqual(
        [dp, p1, p2].sort(),
      );
      expect(h.calls('POST', `${API}/document`)).toBe(0);

      await h.put('products', p1, product(p1));
      await h.put('delivery-points', dp, deliveryPoint(dp));
      await h.settled('product', p1);
      await h.settled('delivery-point', dp);
      expect((await h.svc.deps.store.pushes.get('acme', 'document', doc))?.state).toBe('pending');
      await h.put('products', p2, product(p2));
      const synced = await h.settled('document', doc);
      expect(synced).toMatchObject({ state: 'synced', attempts: 1 });
      expect(await h.svc.deps.store.pushes.waitsOf(synced.id)).toEqual([]);
      const inWms = await wmsGet(h, `/document/${doc}`);
      expect(inWms.body).toMatchObject({
        externalCode: doc,
        deliveryPointExternalCode: dp,
        lines: [{ productExternalCode: p1 }, { productExternalCode: p2 }],
      });
      expect(h.calls('POST', `${API}/document`)).toBe(1);

      await h.put('documents', doc, document(doc, [p1, p2], { deliveryPointExternalCode: dp, reference: 'R-2' }));
      await h.settled('document', doc, (r) => r.state === 'synced' && r.attempts === 2);
      expect((await wmsGet(h, `/document/${doc}`)).body.reference).toBe('R-2');

      expect((await erp(h.svc.app, h.acme, 'POST', `/erp/v1/documents/${doc}/cancel`)).status).toBe(202);
      expect((await h.settled('document-cancel', doc)).state).toBe('synced');
      expect((await wmsGet(h, `/document?externalCode.equals=${doc}&status.equals=CANCELLED`)).body).toHaveLength(1);
    });

    it('a cancel waits for its document to be created first', async () => {
      const [p, doc] = [code('P'), code('PO')];
      await h.put('documents', doc, document(doc, [p], { documentType: 'PURCHASE_ORDER' }));
      expect((await erp(h.svc.app, h.acme, 'POST', `/erp/v1/documents/${doc}/cancel`)).status).toBe(202);
      const cancel = await h.settled('document-cancel', doc, (r) => r.state === 'pending', 2000);
      await until(async () => (await h.svc.deps.store.pushes.waitsOf(cancel.id)).length === 1);
      await h.put('products', p, product(p));
      expect((await h.settled('document-cancel', doc)).state).toBe('synced');
      expect((await wmsGet(h, `/document/${doc}`)).status).toBe(200);
      expect((await wmsGet(h, `/document?externalCode.equals=${doc}&status.equals=CANCELLED`)).body).toHaveLength(1);
    });

    it('a document that references products created in the WMS by other means does not wait', async () => {
      const doc = code('SO');
      const p = code('P');
      // Created straight in the WMS, never sent to wms-sync.
      expect((await wmsSend(h, 'POST', '/product', product(p))).status).toBe(200);
      await h.put('documents', doc, document(doc, [p]));
      expect((await h.settled('document', doc)).state).toBe('synced');
    });

    it('never more calls in flight to the WMS than the adaptive limit, itself never above WMS_MAX_CONCURRENCY', async () => {
      await until(() => h.proxy.inFlight === 0, { message: 'proxy idle' });
      h.proxy.maxInFlight = 0;
      const from = h.proxy.requests.length;
      const limiter = h.svc.deps.wms.get(h.acme).limiter;
      // Earlier tests' 429s and 503s may have lowered the limit: the bound is whatever it is now.
      const bound = limiter.allowed;
      expect(bound).toBeLessThanOrEqual(4);
      // The first `bound` answers are held: the bound is reached whatever the machine's speed, and
      // no further call may go out while they are.
      h.proxy.inject({ method: 'POST', path: `${API}/product`, hold: true, count: bound });
      const items = Array.from({ length: 40 }, () => product(code('BULK')));
      await erp(h.svc.app, h.acme, 'POST', '/erp/v1/products:batch', { json: { items } });
      await until(() => h.proxy.requests.slice(from).filter((r) => r.outcome === 'held').length === bound, {
        message: 'calls held',
      });
      expect(h.proxy.inFlight).toBe(bound);
      h.proxy.release();
      for (const item of items) await h.settled('product', item.externalCode);
      expect(h.proxy.maxInFlight).toBeLessThanOrEqual(4);
      expect(limiter.limit).toBeLessThanOrEqual(4);
    });
  });
}
