import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/reconcile/run.js';
import { until } from '../support/wait.js';
import { ReconcileHarness } from './harness.js';

const STOCK = '/api/external/v1/product/stock';

/**
 * A run started again after its worker died (the job's lease ran out) or after a failure of our
 * own: a drift it finds that the first attempt had not seen must still reach the ERP.
 */
export function rerunSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`a run started again (${dialect})`, () => {
    let h: ReconcileHarness;

    beforeAll(async () => {
      // One product per request, one at a time, recheck at once: the requests come in a known order.
      h = await ReconcileHarness.start('reconcile-rerun', dialect, {
        RECONCILE_BATCH_SIZE: '1',
        RECONCILE_PARALLELISM: '1',
        RECONCILE_SETTLE_SECONDS: '0',
        WMS_TIMEOUT_MS: '20000',
      });
      await h.product('RR-A');
      await h.product('RR-C');
      await h.receive([
        { product: 'RR-A', quantity: 10 },
        { product: 'RR-C', quantity: 10 },
      ]);
      await h.settled();
      expect(await h.reconcile()).toMatchObject({ status: 'completed', driftCount: 0 });
    });
    afterAll(async () => {
      await h.close();
    });

    it('reports a drift found by the second attempt for a pair the first attempt already reported', async () => {
      // Two regularizations whose webhooks are lost.
      await h.ok('POST', '/faults', { scope: 'webhook', path: '**/stock-regularization', drop: true, count: 2 });
      await h.regularize('RR-A', 4);
      await h.regularize('RR-C', 2);
      await h.settled();

      // Attempt 1: the first product's drift is confirmed by the recheck and written; the recheck of
      // the second one (the 4th stock request) hangs, as with a worker that stops there.
      h.proxy.inject({ method: 'POST', path: STOCK, count: 3 });
      h.proxy.inject({ method: 'POST', path: STOCK, count: 1, hold: true });
      const run = await h.store.reconciliation.createRun({ connection: 'acme', trigger: 'api', at: new Date() });
      const deps = { ...h.svc.deps, config: h.svc.deps.config.reconcile };
      const stopFirst = new AbortController();
      const first = executeRun(deps, run.id, { signal: stopFirst.signal });
      const [reported] = await until(
        async () => {
          const drifts = await h.driftFeed();
          return drifts.length === 1 ? drifts : undefined;
        },
        { message: 'the first attempt reports one drift' },
      );
      const product = reported!.data.productExternalCode as string;
      expect(reported!.data.delta).toBe(product === 'RR-A' ? 4 : 2);

      // Meanwhile the same product moves again, and this webhook is lost too.
      await h.ok('POST', '/faults', { scope: 'webhook', path: '**/stock-regularization', drop: true, count: 1 });
      await h.regularize(product, -3);
      await h.settled();

      // Attempt 2 (the job again, after the lease ran out): from the beginning.
      const second = await executeRun(deps, run.id);
      expect(second).toMatchObject({ status: 'completed' });
      stopFirst.abort();
      // The hung request answers only now, after the second attempt ended and the first was stopped.
      h.proxy.release();
      await first.catch(() => undefined);

      const sum = async (code: string) =>
        (await h.driftFeed())
          .filter((e) => e.data.productExternalCode === code)
          .reduce((s, e) => s + (e.data.delta as number), 0);
      // What the ERP was told adds up to what the WMS did: +4 and -3 on RR-A, +2 on RR-C.
      expect(await sum('RR-A')).toBe(product === 'RR-A' ? 1 : 4);
      expect(await sum('RR-C')).toBe(product === 'RR-C' ? -1 : 2);
      // And the next run finds nothing left over.
      expect(await h.reconcile()).toMatchObject({ status: 'completed', driftCount: 0 });
    });

    it('two attempts of one run at once report a drift once', async () => {
      await h.ok('POST', '/faults', { scope: 'webhook', path: '**/stock-regularization', drop: true, count: 1 });
      await h.regularize('RR-C', 5);
      await h.settled();
      const before = (await h.driftFeed()).length;
      const run = await h.store.reconciliation.createRun({ connection: 'acme', trigger: 'api', at: new Date() });
      const deps = { ...h.svc.deps, config: h.svc.deps.config.reconcile };
      await Promise.all([executeRun(deps, run.id), executeRun(deps, run.id)]);
      const drifts = (await h.driftFeed()).slice(before);
      expect(drifts.map((e) => [e.data.productExternalCode, e.data.delta])).toEqual([['RR-C', 5]]);
      expect(await h.reconcile()).toMatchObject({ status: 'completed', driftCount: 0 });
    });
  });
}
