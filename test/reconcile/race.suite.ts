import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestRun } from '../../src/reconcile/request.js';
import { until } from '../support/wait.js';
import { ReconcileHarness } from './harness.js';

const STOCK = '/api/external/v1/product/stock';

/** Webhooks racing a run never show up as drift, now or in the next run. */
export function raceSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`webhooks racing a run (${dialect})`, () => {
    let h: ReconcileHarness;

    beforeAll(async () => {
      // One stock request for every product, so the proxy can hold the one that matters.
      h = await ReconcileHarness.start('reconcile-race', dialect, {
        RECONCILE_BATCH_SIZE: '100',
        RECONCILE_SETTLE_SECONDS: '2',
      });
      await h.product('RACE-A');
      await h.product('RACE-B', true);
      await h.receive([
        { product: 'RACE-A', quantity: 20 },
        { product: 'RACE-B', quantity: 9, lot: 'B1' },
      ]);
      await h.settled();
      expect(await h.reconcile()).toMatchObject({ status: 'completed', driftCount: 0 });
    });
    afterAll(async () => {
      await h.close();
    });

    it('a movement made before the stock request, whose webhook arrives after it, is no drift: the recheck sees it learnt', async () => {
      // The webhooks are held on their way: the run's first request sees the stock moved while the
      // service has not heard of it yet. They arrive once the run has found the differences (its
      // recheck is held meanwhile, so it is sent only after they are processed).
      const before = h.proxy.requests.length;
      h.hooks.inject({ method: 'POST', path: '**/stock-regularization', holdRequest: true, count: 2 });
      h.proxy.inject({ method: 'POST', path: STOCK, count: 1 });
      h.proxy.inject({ method: 'POST', path: STOCK, holdRequest: true, count: 1 });
      await h.regularize('RACE-A', -4);
      await h.regularize('RACE-B', 2, 'B1');
      const { run: requested } = await requestRun(h.svc.deps, 'acme', 'api');
      await until(() => h.proxy.requests.slice(before).some((r) => r.path === STOCK && r.outcome === 'held'), {
        timeoutMs: 20_000,
        message: 'the recheck asked',
      });
      h.hooks.clear();
      await h.settled();
      h.proxy.release();
      const run = await h.finished(requested.id);
      expect(run).toMatchObject({ status: 'completed', driftCount: 0, unsettledCount: 0 });
      // Both pairs differed at first (the race happened) and were settled by the recheck.
      expect(run.rowsRechecked).toBe(2);
      expect(await h.items(run.id)).toEqual([]);
      expect(await h.driftFeed()).toEqual([]);
      await h.settled();
      expect(await h.reconcile()).toMatchObject({ status: 'completed', driftCount: 0, rowsRechecked: 0 });
    });

    it('a movement made after the stock request was answered by the WMS, learnt before the run compares, is no drift now nor in the next run', async () => {
      // The proxy lets the WMS answer, then holds the answer while the stock moves and its webhook is processed.
      const before = h.proxy.requests.length;
      h.proxy.inject({ method: 'POST', path: STOCK, hold: true });
      const { run } = await requestRun(h.svc.deps, 'acme', 'api');
      await until(
        () => h.proxy.requests.slice(before).some((r) => r.path === STOCK && r.outcome === 'held' && r.status === 200),
        { message: 'WMS answered the held request' },
      );
      await h.regularize('RACE-A', 5);
      await h.settled();
      h.proxy.release();
      const done = await h.finished(run.id);
      expect(done).toMatchObject({ status: 'completed', driftCount: 0, rowsRechecked: 0 });
      expect(h.proxy.requests.slice(before).filter((r) => r.path === STOCK && r.outcome === 'held')).toHaveLength(1);
      // The movement is timed after the request: it counts on top of the baseline next time.
      expect((await h.store.reconciliation.getSnapshot('acme', 'RACE-A', null))?.existence).toBe(16);
      const next = await h.reconcile();
      expect(next).toMatchObject({ status: 'completed', driftCount: 0, rowsRechecked: 0 });
      expect((await h.store.reconciliation.getSnapshot('acme', 'RACE-A', null))?.existence).toBe(21);
      expect(await h.driftFeed()).toEqual([]);
    });
  });
}
