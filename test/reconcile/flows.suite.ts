import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../support/metrics.js';
import { ReconcileHarness } from './harness.js';

let seq = 0;
const code = (p: string) => `${p}-${++seq}`;

/** Expected figures come from real webhook processing: clean flows leave no drift, lost webhooks do. */
export function flowsSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`reconciliation after warehouse flows (${dialect})`, () => {
    let h: ReconcileHarness;

    beforeAll(async () => {
      h = await ReconcileHarness.start('reconcile-flows', dialect);
    });
    afterAll(async () => {
      await h.close();
    });

    it('after receptions, a shipment and regularizations whose webhooks arrive, no drift (lots and non-lot products)', async () => {
      const plain = code('PLAIN');
      const lotted = code('LOTTED');
      await h.product(plain);
      await h.product(lotted, true);
      await h.receive([
        { product: plain, quantity: 10 },
        { product: lotted, quantity: 6, lot: 'L1' },
        { product: lotted, quantity: 4, lot: 'L2' },
      ]);
      await h.ship([
        { product: plain, quantity: 3 },
        { product: lotted, quantity: 2, lot: 'L1' },
      ]);
      await h.regularize(plain, -1);
      await h.regularize(lotted, 5, 'L2');
      await h.settled();

      const run = await h.reconcile();
      expect(run).toMatchObject({
        status: 'completed',
        driftCount: 0,
        notFoundCount: 0,
        unsettledCount: 0,
        rowsRechecked: 0,
        reason: null,
      });
      expect(run.rowsChecked).toBeGreaterThanOrEqual(3);
      expect(await h.items(run.id)).toEqual([]);
      expect(await h.driftFeed()).toEqual([]);
      // The figures matched, and became the baselines.
      expect((await h.store.reconciliation.getSnapshot('acme', plain, null))?.existence).toBe(6);
      expect((await h.store.reconciliation.getSnapshot('acme', lotted, 'L1'))?.existence).toBe(4);
      expect((await h.store.reconciliation.getSnapshot('acme', lotted, 'L2'))?.existence).toBe(9);
    });

    it('a regularization whose webhook is never delivered is drift of exactly its delta, sent to the ERP; the next run is clean', async () => {
      const lotted = code('LOST-LOT');
      const plain = code('LOST-PLAIN');
      await h.product(lotted, true);
      await h.product(plain);
      await h.receive([
        { product: lotted, quantity: 10, lot: 'L1' },
        { product: plain, quantity: 4 },
      ]);
      await h.settled();
      // spec: "A failed stock regularization delivery ... cannot be re-sent; integrators reconcile stock with endpoint 7."
      await h.ok('POST', '/faults', { scope: 'webhook', path: '**/stock-regularization', drop: true, count: 2 });
      await h.regularize(lotted, -3, 'L1');
      await h.regularize(plain, 2.5);
      await h.settled();
      const failed = await h.ok('GET', '/tenants/acme/webhook-log?status=failed&kind=stock-regularization');
      expect(failed).toHaveLength(2);

      const counted = async () => {
        const text = await (await h.svc.app.request('/metrics')).text();
        return {
          completed: sample(text, 'wms_sync_reconcile_runs_total', { connection: 'acme', status: 'completed' }) ?? 0,
          drift: sample(text, 'wms_sync_reconcile_drift_total', { connection: 'acme' }) ?? 0,
        };
      };
      const before = await counted();
      const run = await h.reconcile();
      expect(run).toMatchObject({ status: 'completed', driftCount: 2, unsettledCount: 0 });
      // What the ReconcileDrift alert reads.
      expect(await counted()).toEqual({ completed: before.completed + 1, drift: before.drift + 2 });
      // Each difference was asked again after the settle window before it was reported.
      expect(run.rowsRechecked).toBe(2);
      const items = await h.items(run.id);
      expect(
        items
          .map((i) => [i.productExternalCode, i.lotCode, i.status, i.wmsExistence, i.expectedExistence, i.delta])
          .sort(),
      ).toEqual(
        [
          [lotted, 'L1', 'drift', 7, 10, -3],
          [plain, '', 'drift', 6.5, 4, 2.5],
        ].sort(),
      );
      const feed = await h.driftFeed();
      expect(feed.map((e) => e.data).sort((a, b) => a.delta - b.delta)).toEqual([
        expect.objectContaining({
          runId: run.id,
          productExternalCode: lotted,
          lotCode: 'L1',
          delta: -3,
          wms: { existence: 7, available: 7 },
          expected: { existence: 10, baseline: null, movements: 10 },
        }),
        expect.objectContaining({ runId: run.id, productExternalCode: plain, lotCode: null, delta: 2.5 }),
      ]);

      // The WMS figure is the new baseline: nothing more to report, and nothing sent twice.
      const next = await h.reconcile();
      expect(next).toMatchObject({ status: 'completed', driftCount: 0 });
      expect(await h.driftFeed()).toHaveLength(2);
      expect(await h.store.reconciliation.getSnapshot('acme', lotted, 'L1')).toMatchObject({
        existence: 7,
        runId: run.id,
      });
    });

    it('a delivery the receiver refuses (wrong credentials: 401) is lost the same way', async () => {
      const p = code('REFUSED');
      await h.product(p);
      await h.receive([{ product: p, quantity: 8 }]);
      await h.settled();
      const config = await h.ok('GET', '/tenants/acme/webhooks');
      const cred = h.acme.webhookCredentials[0]!;
      const { passwordSet: _passwordSet, ...settings } = config;
      await h.ok('PUT', '/tenants/acme/webhooks', { ...settings, password: 'not-the-password' });
      await h.regularize(p, -5);
      await h.settled();
      await h.ok('PUT', '/tenants/acme/webhooks', { ...settings, password: cred.password });
      const failed: { response: { status: number } | null; request: { body: { productExternalCode: string } } }[] =
        await h.ok('GET', '/tenants/acme/webhook-log?status=failed&kind=stock-regularization');
      const refused = failed.filter((d) => d.request.body.productExternalCode === p);
      expect(refused.map((d) => d.response?.status)).toEqual([401]);

      const run = await h.reconcile();
      expect(run).toMatchObject({ status: 'completed', driftCount: 1 });
      expect((await h.items(run.id)).map((i) => [i.productExternalCode, i.delta])).toEqual([[p, -5]]);
    });
  });
}
