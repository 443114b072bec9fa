import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erp } from '../push/support.js';
import { until } from '../support/wait.js';
import { ReconcileHarness } from './harness.js';

const STOCK = '/api/external/v1/product/stock';

/** WMS failures end up in the run (partial, failed, not found), never as a crash nor as false drift. */
export function failuresSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`reconciliation when the WMS fails (${dialect})`, () => {
    let h: ReconcileHarness;

    beforeAll(async () => {
      // One product per request, one request at a time: a fault hits exactly one batch.
      h = await ReconcileHarness.start('reconcile-failures', dialect, {
        RECONCILE_BATCH_SIZE: '1',
        RECONCILE_PARALLELISM: '1',
      });
      for (const p of ['F-1', 'F-2', 'F-3']) await h.product(p);
      await h.receive([
        { product: 'F-1', quantity: 1 },
        { product: 'F-2', quantity: 2 },
        { product: 'F-3', quantity: 3 },
      ]);
      await h.settled();
    });
    afterAll(async () => {
      await h.close();
    });

    it('a batch failing once is retried and the run completes', async () => {
      await h.ok('POST', '/faults', { path: STOCK, status: 503, count: 1 });
      const run = await h.reconcile();
      // endpoint 6, one request per product, and the retry.
      expect(run).toMatchObject({
        status: 'completed',
        productsChecked: 3,
        productsFailed: 0,
        requests: 5,
        driftCount: 0,
      });
    });

    it('a batch that keeps failing is retried, then the run ends partial with the reason; the other batches are checked', async () => {
      await h.ok('POST', '/faults', { scope: 'webhook', path: '**/stock-regularization', drop: true, count: 1 });
      await h.regularize('F-3', 4);
      await h.settled();
      await h.ok('POST', '/faults', { path: STOCK, status: 503, count: 3 });
      const run = await h.reconcile();
      expect(run).toMatchObject({
        status: 'partial',
        productsTotal: 3,
        productsChecked: 2,
        productsFailed: 1,
        driftCount: 1,
      });
      expect(run.reason).toMatch(
        /^1 batch failed \(1 products not checked\): productStock .*503.* \(after 3 attempts\)$/,
      );
      expect((await h.items(run.id)).map((i) => [i.productExternalCode, i.status, i.delta])).toEqual([
        ['F-3', 'drift', 4],
      ]);
      // The product that was not checked keeps its baseline: the next run checks it as usual.
      expect(await h.reconcile()).toMatchObject({ status: 'completed', driftCount: 0, productsChecked: 3 });
    });

    it('when every batch fails the run stops after 5 in a row and ends failed; a WMS that cannot list products fails the run at once', async () => {
      for (const p of ['F-4', 'F-5', 'F-6']) await h.product(p);
      const fault = await h.ok('POST', '/faults', { path: STOCK, status: 500 });
      const run = await h.reconcile(20_000);
      await h.ok('DELETE', `/faults/${fault.id}`);
      expect(run).toMatchObject({ status: 'failed', productsChecked: 0, productsFailed: 5, requests: 1 + 5 * 3 });
      expect(run.reason).toMatch(
        /^stopped after 5 failed batches in a row; 5 batches failed \(5 products not checked\): /,
      );

      await h.ok('POST', '/faults', { path: '/api/external/v1/product-all-external-codes', status: 400, count: 1 });
      const listing = await h.reconcile();
      expect(listing).toMatchObject({ status: 'failed', productsTotal: null, requests: 1 });
      expect(listing.reason).toMatch(/^listing the products failed: productAllExternalCodes .*400/);
    });
  });

  describe(`products unknown to the WMS (${dialect})`, () => {
    let h: ReconcileHarness;

    beforeAll(async () => {
      h = await ReconcileHarness.start('reconcile-not-found', dialect, {
        RECONCILE_PRODUCTS: 'synced',
        RECONCILE_BATCH_SIZE: '4',
      });
    });
    afterAll(async () => {
      await h.close();
    });

    it('the ERP’s synced products are checked; one the WMS answers 404 for is reported, not fatal', async () => {
      for (const p of ['S-1', 'S-2', 'S-3']) {
        expect(
          (
            await erp(h.svc.app, h.acme, 'PUT', `/erp/v1/products/${p}`, {
              json: { externalCode: p, description: `Product ${p}` },
            })
          ).status,
        ).toBe(202);
      }
      await until(
        async () =>
          (await h.store.pushes.list({ connection: 'acme', entity: 'product', state: 'synced', limit: 10 })).length ===
          3,
        { message: 'products synced' },
      );
      // Synced once, then gone from the WMS (deleted there): the service still lists it.
      const at = new Date();
      const { record } = await h.store.pushes.upsert({
        connection: 'acme',
        entity: 'product',
        externalCode: 'S-GONE',
        payload: { externalCode: 'S-GONE' },
        payloadHash: 'h',
        at,
      });
      await h.store.pushes.markSynced(record.id, 'h', at);
      await h.receive([
        { product: 'S-1', quantity: 5 },
        { product: 'S-3', quantity: 7 },
      ]);
      await h.settled();

      const run = await h.reconcile();
      expect(run).toMatchObject({
        status: 'completed',
        productsTotal: 4,
        productsChecked: 4,
        notFoundCount: 1,
        driftCount: 0,
      });
      // The batch of 4 answered 404, then its halves, then the quarter holding S-GONE.
      expect(run.requests).toBe(5);
      expect((await h.items(run.id)).map((i) => [i.productExternalCode, i.status, i.wmsExistence])).toEqual([
        ['S-GONE', 'not_found', null],
      ]);
      expect((await h.store.reconciliation.getSnapshot('acme', 'S-3', null))?.existence).toBe(7);
    });
  });

  describe(`a pair that keeps moving (${dialect})`, () => {
    let h: ReconcileHarness;

    beforeAll(async () => {
      h = await ReconcileHarness.start('reconcile-moving', dialect, { RECONCILE_SETTLE_SECONDS: '0' });
      await h.product('M-1');
    });
    afterAll(async () => {
      await h.close();
    });

    it('is reported unsettled, not drift, when every recheck shows another delta', async () => {
      // Four answers in a row, each with another figure: no two rounds agree.
      for (const existence of [1, 2, 3, 4])
        h.proxy.inject({
          method: 'POST',
          path: STOCK,
          status: 200,
          body: [{ product: 'M-1', existence, available: existence }],
        });
      const run = await h.reconcile();
      expect(run).toMatchObject({
        status: 'completed',
        driftCount: 0,
        unsettledCount: 1,
        rowsChecked: 1,
        rowsRechecked: 3,
      });
      expect((await h.items(run.id)).map((i) => [i.productExternalCode, i.status, i.wmsExistence, i.delta])).toEqual([
        ['M-1', 'unsettled', 4, 4],
      ]);
      expect(await h.driftFeed()).toEqual([]);
      expect(await h.store.reconciliation.getSnapshot('acme', 'M-1', null)).toBeUndefined();
    });
  });
}
