import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpectedFigure, NewLedgerMovement, Store } from '../../../src/store/index.js';

/**
 * The reconciliation repo's contract, run against both adapters (reconciliation.sqlite.test.ts,
 * reconciliation.pg.test.ts).
 */
export function reconciliationContract(
  label: string,
  open: () => Promise<{ store: Store; close: () => Promise<void> }>,
): void {
  describe(`reconciliation store contract: ${label}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    const t0 = new Date('2026-11-20T10:00:00.000Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    let seq = 0;
    const conn = (p: string) => `${p}-${++seq}`;

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close();
    });

    const movement = (
      connection: string,
      m: { p: string; lot?: string | null; q: number; mt: number; created: number },
      n: number,
    ): NewLedgerMovement => ({
      connection,
      productExternalCode: m.p,
      lotCode: m.lot ?? null,
      warehouse: null,
      quantity: m.q,
      movementTime: at(m.mt),
      source: 'test',
      dedupeKey: `${connection}-${n}`,
      at: at(m.created),
    });
    const byKey = (figures: ExpectedFigure[]) =>
      Object.fromEntries(
        figures.map((f) => [
          `${f.productExternalCode}/${f.lotCode}`,
          { baseline: f.baseline, movements: f.movements, n: f.movementCount },
        ]),
      );

    describe('runs', () => {
      it('queued → running (counted attempt, counters from zero) → finished with item counts; finished runs stay finished', async () => {
        const c = conn('runs');
        const first = await store.reconciliation.createRun({ connection: c, trigger: 'api', at: at(0) });
        const second = await store.reconciliation.createRun({ connection: c, trigger: 'schedule', at: at(1) });
        expect(first).toMatchObject({
          status: 'queued',
          trigger: 'api',
          attempts: 0,
          productsTotal: null,
          rowsChecked: 0,
          startedAt: null,
          finishedAt: null,
        });
        expect((await store.reconciliation.findQueued(c))?.id).toBe(second.id);
        expect((await store.reconciliation.listRuns(c, { limit: 10 })).map((r) => r.id)).toEqual([second.id, first.id]);
        expect((await store.reconciliation.listRuns(c, { limit: 10, beforeId: second.id })).map((r) => r.id)).toEqual([
          first.id,
        ]);
        expect(await store.reconciliation.listRuns(`${c}-none`, { limit: 10 })).toEqual([]);

        const started = await store.reconciliation.startRun(first.id, at(2));
        expect(started).toMatchObject({ status: 'running', attempts: 1 });
        expect(started!.startedAt?.getTime()).toBe(at(2).getTime());
        await store.reconciliation.setProductsTotal(first.id, 40, at(3));
        // Parallel batches add to the counters at once: every increment counts.
        await Promise.all(
          Array.from({ length: 20 }, () =>
            store.reconciliation.addProgress(first.id, { productsChecked: 2, rowsChecked: 3, requests: 1 }, at(4)),
          ),
        );
        await store.reconciliation.addProgress(first.id, { productsFailed: 1, rowsRechecked: 5 }, at(4));
        expect(await store.reconciliation.getRun(first.id)).toMatchObject({
          productsTotal: 40,
          productsChecked: 40,
          rowsChecked: 60,
          requests: 20,
          productsFailed: 1,
          rowsRechecked: 5,
        });

        await store.reconciliation.addItems([
          {
            runId: first.id,
            connection: c,
            productExternalCode: 'A',
            lotCode: null,
            status: 'drift',
            delta: 2,
            at: at(5),
          },
          {
            runId: first.id,
            connection: c,
            productExternalCode: 'A',
            lotCode: 'L1',
            status: 'drift',
            delta: -1,
            at: at(5),
          },
          { runId: first.id, connection: c, productExternalCode: 'B', lotCode: null, status: 'not_found', at: at(5) },
          { runId: first.id, connection: c, productExternalCode: 'C', lotCode: null, status: 'unsettled', at: at(5) },
        ]);
        const done = await store.reconciliation.finishRun(first.id, {
          status: 'partial',
          reason: '1 batch failed',
          at: at(6),
        });
        expect(done).toMatchObject({
          status: 'partial',
          reason: '1 batch failed',
          driftCount: 2,
          notFoundCount: 1,
          unsettledCount: 1,
        });
        expect(done!.finishedAt?.getTime()).toBe(at(6).getTime());

        expect(await store.reconciliation.startRun(first.id, at(7))).toBeUndefined();
        expect(
          await store.reconciliation.finishRun(first.id, { status: 'completed', reason: null, at: at(8) }),
        ).toMatchObject({ status: 'partial' });
        await store.reconciliation.requeueRun(first.id, 'ignored', at(9));
        expect((await store.reconciliation.getRun(first.id))?.status).toBe('partial');
        expect(await store.reconciliation.getRun(999_999_999)).toBeUndefined();
      });

      it('an interrupted run starts again from zero, and a failed attempt puts it back in line', async () => {
        const c = conn('restart');
        const run = await store.reconciliation.createRun({ connection: c, trigger: 'cli', at: at(0) });
        await store.reconciliation.startRun(run.id, at(1));
        await store.reconciliation.addProgress(run.id, { rowsChecked: 7 }, at(2));
        await store.reconciliation.requeueRun(run.id, 'attempt 1: WMS down', at(3));
        expect(await store.reconciliation.findQueued(c)).toMatchObject({ id: run.id, reason: 'attempt 1: WMS down' });
        const again = await store.reconciliation.startRun(run.id, at(4));
        expect(again).toMatchObject({ status: 'running', attempts: 2, rowsChecked: 0, reason: null });
        expect(await store.reconciliation.findQueued(c)).toBeUndefined();
      });

      it('a run interrupted by a stopping process waits to start again (found as waiting); a finished run is never interrupted', async () => {
        const c = conn('interrupt');
        const run = await store.reconciliation.createRun({ connection: c, trigger: 'api', at: at(0) });
        await store.reconciliation.startRun(run.id, at(1));
        expect(await store.reconciliation.interruptRun(run.id, 'interrupted: stopping', at(2))).toMatchObject({
          status: 'interrupted',
          reason: 'interrupted: stopping',
        });
        expect(await store.reconciliation.findQueued(c)).toMatchObject({ id: run.id, status: 'interrupted' });
        expect(await store.reconciliation.startRun(run.id, at(3))).toMatchObject({
          status: 'running',
          attempts: 2,
          reason: null,
        });
        await store.reconciliation.finishRun(run.id, { status: 'completed', reason: null, at: at(4) });
        expect(await store.reconciliation.interruptRun(run.id, 'too late', at(5))).toMatchObject({
          status: 'completed',
          reason: null,
        });
      });
    });

    describe('items', () => {
      it('are kept once per run, product and lot (null lot = ""), and page in id order', async () => {
        const c = conn('items');
        const run = await store.reconciliation.createRun({ connection: c, trigger: 'api', at: at(0) });
        const item = (p: string, lot: string | null, delta: number) => ({
          runId: run.id,
          connection: c,
          productExternalCode: p,
          lotCode: lot,
          status: 'drift' as const,
          delta,
          wmsExistence: 10,
          expectedExistence: 10 - delta,
          observedAt: at(1),
          at: at(1),
        });
        expect(
          await store.reconciliation.addItems(
            Array.from({ length: 600 }, (_, i) => item(`P${i}`, i % 2 ? 'L' : null, i)),
          ),
        ).toBe(600);
        // The first finding stands: a second attempt of the run adds nothing for the same pairs.
        expect(await store.reconciliation.addItems([item('P0', '', 99), item('P1', 'L', 99), item('P0', 'L', 5)])).toBe(
          1,
        );
        const page1 = await store.reconciliation.listItems(run.id, { limit: 400 });
        const page2 = await store.reconciliation.listItems(run.id, { afterId: page1.at(-1)!.id, limit: 400 });
        expect(page1).toHaveLength(400);
        expect(page2).toHaveLength(201);
        expect(page1[0]).toMatchObject({
          productExternalCode: 'P0',
          lotCode: '',
          delta: 0,
          wmsExistence: 10,
          status: 'drift',
        });
        expect(page1[0]!.observedAt?.getTime()).toBe(at(1).getTime());
        expect([...page1, ...page2].map((i) => i.id)).toEqual(
          [...page1, ...page2].map((i) => i.id).sort((a, b) => a - b),
        );
      });
    });

    describe('expected figures', () => {
      it('without a baseline: every movement up to the cut, per product and lot; other products and connections left out', async () => {
        const c = conn('nobase');
        await store.ledger.record(
          [
            { p: 'A', q: 10, mt: 1, created: 1 },
            { p: 'A', q: -3, mt: 2, created: 2 },
            { p: 'A', lot: 'L1', q: 4, mt: 3, created: 3 },
            { p: 'A', q: 100, mt: 20, created: 20 }, // after the cut
            { p: 'B', q: 7, mt: 1, created: 1 },
            { p: 'Z', q: 1, mt: 1, created: 1 }, // not asked for
          ].map((m, i) => movement(c, m, i)),
        );
        await store.ledger.record([movement(`${c}-other`, { p: 'A', q: 50, mt: 1, created: 1 }, 0)]);
        expect(byKey(await store.reconciliation.expected(c, ['A', 'B', 'NONE'], at(10)))).toEqual({
          'A/': { baseline: null, movements: 7, n: 2 },
          'A/L1': { baseline: null, movements: 4, n: 1 },
          'B/': { baseline: null, movements: 7, n: 1 },
        });
      });

      it('with a baseline: movements timed after it, or learnt after it was taken, on top; a baseline without movements stands alone', async () => {
        const c = conn('base');
        await store.ledger.record(
          [
            { p: 'A', q: 10, mt: 1, created: 2 }, // in the baseline: timed before asOf, learnt before takenAt
            { p: 'A', q: 5, mt: 6, created: 7 }, // timed after asOf
            { p: 'A', q: -2, mt: 3, created: 9 }, // timed before asOf but learnt after takenAt: late, counts
            { p: 'A', q: 1, mt: 12, created: 12 }, // after the cut
          ].map((m, i) => movement(c, m, i)),
        );
        await store.reconciliation.saveSnapshots([
          {
            connection: c,
            productExternalCode: 'A',
            lotCode: null,
            existence: 10,
            available: 8,
            asOf: at(5),
            takenAt: at(8),
            runId: 1,
          },
          {
            connection: c,
            productExternalCode: 'B',
            lotCode: 'L',
            existence: 4,
            available: 4,
            asOf: at(5),
            takenAt: at(8),
            runId: 1,
          },
        ]);
        expect(byKey(await store.reconciliation.expected(c, ['A', 'B'], at(10)))).toEqual({
          'A/': { baseline: 10, movements: 3, n: 2 },
          'B/L': { baseline: 4, movements: 0, n: 0 },
        });
        // Replacing the baseline moves both limits.
        await store.reconciliation.saveSnapshots([
          {
            connection: c,
            productExternalCode: 'A',
            lotCode: '',
            existence: 13,
            available: null,
            asOf: at(10),
            takenAt: at(11),
            runId: 2,
          },
        ]);
        expect(await store.reconciliation.getSnapshot(c, 'A', null)).toMatchObject({
          existence: 13,
          available: null,
          runId: 2,
        });
        expect(byKey(await store.reconciliation.expected(c, ['A'], at(12)))).toEqual({
          'A/': { baseline: 13, movements: 1, n: 1 },
        });
      });

      it('works inside a transaction and across IN-list chunks (600 products)', async () => {
        const c = conn('chunks');
        const products = Array.from({ length: 600 }, (_, i) => `P${i}`);
        await store.ledger.record(products.map((p, i) => movement(c, { p, q: i + 1, mt: 1, created: 1 }, i)));
        const figures = await store.transaction((tx) => tx.reconciliation.expected(c, products, at(5)));
        expect(figures).toHaveLength(600);
        expect(figures.reduce((s, f) => s + f.movements, 0)).toBe((600 * 601) / 2);
      });

      it('matches a reference model for any movements and baseline (property)', async () => {
        const mv = fc.record({
          lot: fc.constantFrom(null, 'L1', 'L2'),
          q: fc.integer({ min: -50, max: 50 }).filter((q) => q !== 0),
          mt: fc.integer({ min: 0, max: 40 }),
          lag: fc.integer({ min: 0, max: 15 }),
        });
        const base = fc.option(
          fc.record({
            lot: fc.constantFrom(null, 'L1', 'L2'),
            existence: fc.integer({ min: 0, max: 100 }),
            asOf: fc.integer({ min: 0, max: 40 }),
            lag: fc.integer({ min: 0, max: 10 }),
          }),
          { nil: undefined },
        );
        await fc.assert(
          fc.asyncProperty(
            fc.array(mv, { maxLength: 25 }),
            base,
            fc.integer({ min: 0, max: 50 }),
            async (moves, snap, cut) => {
              const c = conn('prop');
              await store.ledger.record(
                moves.map((m, i) => movement(c, { p: 'P', lot: m.lot, q: m.q, mt: m.mt, created: m.mt + m.lag }, i)),
              );
              if (snap) {
                await store.reconciliation.saveSnapshots([
                  {
                    connection: c,
                    productExternalCode: 'P',
                    lotCode: snap.lot,
                    existence: snap.existence,
                    available: null,
                    asOf: at(snap.asOf),
                    takenAt: at(snap.asOf + snap.lag),
                    runId: 1,
                  },
                ]);
              }
              const want = new Map<string, { baseline: number | null; movements: number; n: number }>();
              if (snap) want.set(`P/${snap.lot ?? ''}`, { baseline: snap.existence, movements: 0, n: 0 });
              for (const m of moves) {
                const key = `P/${m.lot ?? ''}`;
                const s = snap && (snap.lot ?? '') === (m.lot ?? '') ? snap : undefined;
                const counts = m.mt <= cut && (!s || m.mt > s.asOf || m.mt + m.lag > s.asOf + s.lag);
                if (!counts) continue;
                const w = want.get(key) ?? { baseline: null, movements: 0, n: 0 };
                w.movements += m.q;
                w.n += 1;
                want.set(key, w);
              }
              expect(byKey(await store.reconciliation.expected(c, ['P'], at(cut)))).toEqual(Object.fromEntries(want));
            },
          ),
          { numRuns: 40 },
        );
      });
    });
  });
}
