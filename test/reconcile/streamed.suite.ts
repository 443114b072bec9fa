import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlTenantContext } from '../../src/emulator/index.js';
import { createProduct } from '../../src/emulator/products/create.js';
import { ensureLot } from '../../src/emulator/stock/lot-rules.js';
import { addStock } from '../../src/emulator/stock/store.js';
import { executeRun } from '../../src/reconcile/run.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { startTestService, type TestService } from '../support/service.js';

/** One product/lot pair as the WMS holds it and as the service's ledger learnt it. */
interface Pair {
  lot: string;
  /** null: the WMS does not list the pair (a lot it no longer holds). */
  wms: number | null;
  ledger: number;
}

const pairArb = (lot: string): fc.Arbitrary<Pair> =>
  fc.record({
    lot: fc.constant(lot),
    wms: fc.option(fc.integer({ min: 1, max: 40 }), { freq: 8 }),
    ledger: fc.integer({ min: 0, max: 40 }),
  });

/** A product: without lots, one pair; with lots, one to three. Most pairs agree, some drift. */
const productArb = fc
  .oneof(
    pairArb('').map((p) => [{ ...p, wms: p.wms ?? 1 }]),
    fc
      .tuple(pairArb('L1'), pairArb('L2'), pairArb('L3'))
      .chain(([a, b, c]) => fc.subarray([a, b, c], { minLength: 1 })),
  )
  .chain((pairs) =>
    // Three pairs in four agree with the ledger.
    fc
      .array(fc.boolean(), { minLength: pairs.length, maxLength: pairs.length })
      .map((agree) => pairs.map((p, i) => (agree[i] && p.wms !== null ? { ...p, ledger: p.wms } : p))),
  );

const caseArb = fc.record({
  products: fc.array(productArb, { minLength: 1, maxLength: 40 }),
  batchSize: fc.integer({ min: 1, max: 9 }),
  parallelism: fc.integer({ min: 1, max: 4 }),
  writeRows: fc.integer({ min: 1, max: 60 }),
});

/**
 * The streamed run (codes batched as they are taken, baselines gathered into larger transactions)
 * finds exactly what comparing every pair at once finds, wherever the batch and transaction
 * boundaries fall: the same drifts with the same deltas, one drift event each, and every pair's
 * baseline set to the WMS figure.
 */
export function streamedSuite(dialect: 'sqlite' | 'postgres', numRuns: number): void {
  describe(`streamed reconciliation matches the whole comparison (${dialect})`, () => {
    let wms: RunningEmulator;
    let svc: TestService;
    let seq = 0;
    /** Every pair of every case so far: all are baselines after their run, so they match later. */
    let pairsSoFar = 0;

    beforeAll(async () => {
      wms = await startEmulator();
      const acme = wmsConnection('acme', wms.url, await wms.tenant('acme'));
      svc = await startTestService({ label: 'reconcile-streamed', dialect, connections: [acme] });
    });
    afterAll(async () => {
      await svc?.close();
      await wms?.close();
    });

    it('same drifts, events and baselines for random stock across batch and transaction boundaries', async () => {
      await fc.assert(
        fc.asyncProperty(caseArb, async ({ products, batchSize, parallelism, writeRows }) => {
          const { ctx } = wms.server.emulator.state;
          const tctx = controlTenantContext(ctx, 'acme');
          const { id: warehouseId } = ctx
            .sql(`SELECT id FROM warehouses WHERE tenant_id = ? AND code = 'MAIN'`)
            .get('acme') as { id: number };
          const at = new Date(Date.now() - 3_600_000);
          const movements = [];
          const expected: [string, string, number, number, number][] = [];
          const baselines: [string, string, number][] = [];
          const round = ++seq;
          for (const [i, pairs] of products.entries()) {
            const code = `S${round}-${i}`;
            const withLots = pairs[0]!.lot !== '';
            createProduct(tctx, { externalCode: code, description: code, withLots });
            const { id } = ctx
              .sql('SELECT id FROM products WHERE tenant_id = ? AND external_code = ?')
              .get('acme', code) as { id: number };
            for (const p of pairs) {
              if (p.wms !== null) {
                if (p.lot) ensureLot(tctx, id, p.lot, undefined);
                addStock(tctx, { productId: id, lotCode: p.lot || null, warehouseId, location: 'STOCK' }, p.wms);
              }
              if (p.ledger !== 0) {
                movements.push({
                  connection: 'acme',
                  productExternalCode: code,
                  lotCode: p.lot || null,
                  warehouse: null,
                  quantity: p.ledger,
                  movementTime: at,
                  source: 'test',
                  dedupeKey: `${code}-${p.lot}`,
                  at,
                });
              }
              // Compared: every pair either side knows.
              if (p.wms === null && p.ledger === 0) continue;
              const figure = p.wms ?? 0;
              if (figure !== p.ledger) expected.push([code, p.lot, figure, p.ledger, figure - p.ledger]);
              if (figure !== p.ledger || p.ledger !== 0) baselines.push([code, p.lot, figure]);
            }
          }
          await svc.deps.store.ledger.record(movements);
          // The WMS answers a product without stock with one row of 0 (no lot): a pair compared too.
          const compared =
            products.flat().filter((p) => p.wms !== null || p.ledger !== 0).length +
            products.filter((ps) => ps.every((p) => p.wms === null)).length;

          const { store } = svc.deps;
          const feedBefore = (await store.feed.listAfter('acme', 0, 100_000)).at(-1)?.id ?? 0;
          const { id: runId } = await store.reconciliation.createRun({
            connection: 'acme',
            trigger: 'api',
            at: new Date(),
          });
          const config = { ...svc.deps.config.reconcile, batchSize, parallelism, settleSeconds: 0 };
          const run = await executeRun({ ...svc.deps, config }, runId, { writeRows });

          pairsSoFar += compared;
          expect(run).toMatchObject({
            status: 'completed',
            driftCount: expected.length,
            rowsChecked: pairsSoFar,
            notFoundCount: 0,
            unsettledCount: 0,
          });
          const items = await store.reconciliation.listItems(runId, { limit: 10_000 });
          const found = items.map((x) => [
            x.productExternalCode,
            x.lotCode,
            x.wmsExistence,
            x.expectedExistence,
            x.delta,
          ]);
          expect(found.sort()).toEqual(expected.sort());
          const feed = (await store.feed.listAfter('acme', feedBefore, 10_000)).filter((e) => e.type === 'stock.drift');
          const sent = feed.map((e) => {
            const d = e.data as { productExternalCode: string; lotCode: string | null; delta: number };
            return [d.productExternalCode, d.lotCode ?? '', d.delta];
          });
          expect(sent.sort()).toEqual(expected.map(([code, lot, , , delta]) => [code, lot, delta]).sort());
          for (const [code, lot, figure] of baselines) {
            expect(
              (await store.reconciliation.getSnapshot('acme', code, lot || null))?.existence,
              `${code} ${lot}`,
            ).toBe(figure);
          }
        }),
        { numRuns },
      );
      // Each case is a whole run over HTTP; a busy machine makes that slow, not wrong.
    }, 180_000);
  });
}
