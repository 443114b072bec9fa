import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpectedFigure, NewLedgerMovement, NewStockSnapshot, Store } from '../../../src/store/index.js';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const day = (d: number) => new Date(T0 + d * DAY);

interface Movement {
  pair: number;
  q: number;
  mt: number;
  ca: number;
}
interface Baseline {
  pair: number;
  existence: number;
  asOf: number;
  takenAt: number;
}
const PAIRS = [
  ['P1', ''],
  ['P1', 'L1'],
  ['P2', ''],
  ['P3', 'L9'],
] as const;

/**
 * What reconciliation expects of a pair (docs/reconciliation.md): the baseline plus the movements
 * timed up to the cut and timed after the baseline or learnt after it was taken; without a
 * baseline, every movement up to the cut. An oracle written from the rule, not from the SQL.
 */
function model(movements: Movement[], baselines: Map<number, Baseline>, cut: number) {
  const out = new Map<string, { baseline: number | null; movements: number; counted: boolean }>();
  PAIRS.forEach((p, i) => {
    const b = baselines.get(i);
    const counted = movements.filter((m) => m.pair === i && m.mt <= cut && (!b || m.mt > b.asOf || m.ca > b.takenAt));
    if (!b && counted.length === 0) return;
    out.set(`${p[0]}/${p[1]}`, {
      baseline: b?.existence ?? null,
      movements: counted.reduce((s, m) => s + m.q, 0),
      counted: counted.length > 0,
    });
  });
  return out;
}

const figures = (list: ExpectedFigure[]) =>
  new Map(
    list.map((f) => [
      `${f.productExternalCode}/${f.lotCode}`,
      { baseline: f.baseline, movements: f.movements, counted: f.movementCount > 0 },
    ]),
  );

/** The retention repo's contract, against both adapters (retention.sqlite.test.ts, retention.pg.test.ts). */
export function retentionContract(
  label: string,
  open: () => Promise<{ store: Store; close: () => Promise<void> }>,
): void {
  describe(`retention store contract: ${label}`, () => {
    let store: Store;
    let close: () => Promise<void>;
    let seq = 0;
    const conn = (p: string) => `${p}-${++seq}`;

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    const event = async (
      connection: string,
      key: string,
      receivedDay: number,
      status: 'processed' | 'rejected' | 'failed' | 'received' = 'processed',
    ) => {
      const { event: e } = await store.inbox.record({
        connection,
        kind: 'reception-close',
        dedupeKey: key,
        payload: `{"k":"${key}"}`,
        at: day(receivedDay),
        ...(status === 'rejected' ? { status } : {}),
      });
      if (status === 'processed') await store.inbox.markProcessed(e.id, day(receivedDay));
      if (status === 'failed') await store.inbox.markFailed(e.id, 'boom', day(receivedDay));
      return e.id;
    };

    it('raw bodies go by status and age; the row stays as the dedupe key, so a late re-delivery is still a duplicate', async () => {
      const c = conn('bodies');
      const old = await event(c, 'old', 0);
      const recent = await event(c, 'recent', 50);
      const failed = await event(c, 'failed', 0, 'failed');
      const waiting = await event(c, 'waiting', 0, 'received');
      const rejected = await event(c, 'rejected', 0, 'rejected');
      expect(await store.retention.pruneEventBodies('processed', day(40), day(60), true)).toBeGreaterThanOrEqual(1);
      expect((await store.inbox.get(old))!.payload).not.toBe('');
      expect(await store.retention.pruneEventBodies('processed', day(40), day(60), false)).toBeGreaterThanOrEqual(1);
      expect(await store.inbox.get(old)).toMatchObject({ payload: '', payloadPrunedAt: day(60), status: 'processed' });
      for (const id of [recent, failed, waiting, rejected])
        expect((await store.inbox.get(id))!.payloadPrunedAt).toBeNull();
      await store.retention.pruneEventBodies('rejected', day(40), day(60), false);
      expect((await store.inbox.get(rejected))!.payload).toBe('');
      // dedupe, for ever as long as the key row is there
      const again = await store.inbox.record({
        connection: c,
        kind: 'reception-close',
        dedupeKey: 'old',
        payload: '{"k":"old"}',
        at: day(61),
      });
      expect(again).toMatchObject({ duplicate: true, event: { id: old, duplicates: 1 } });
    });

    it('key rows go only once their body is gone and nothing was received or repeated since the cutoff', async () => {
      const c = conn('keys');
      const quiet = await event(c, 'quiet', 0);
      const repeated = await event(c, 'repeated', 0);
      const kept = await event(c, 'kept', 0);
      await store.retention.pruneEventBodies('processed', day(10), day(10), false);
      await store.inbox.record({
        connection: c,
        kind: 'reception-close',
        dedupeKey: 'repeated',
        payload: '{}',
        at: day(300),
      });
      const unpruned = await event(c, 'unpruned', 5, 'failed');
      void kept;
      const before = await store.retention.pruneEventKeys(day(200), true);
      expect(before).toBeGreaterThanOrEqual(2);
      await store.retention.pruneEventKeys(day(200), false);
      expect(await store.inbox.get(quiet)).toBeUndefined();
      expect(await store.inbox.get(repeated)).toBeDefined();
      expect(await store.inbox.get(unpruned)).toBeDefined();
      // a delivery after its key was pruned is a new event
      expect(
        (
          await store.inbox.record({
            connection: c,
            kind: 'reception-close',
            dedupeKey: 'quiet',
            payload: '{}',
            at: day(400),
          })
        ).duplicate,
      ).toBe(false);
    });

    it('feed entries go by age, but never while their event still has its body (processing it again would append it again)', async () => {
      const c = conn('conf');
      const pruned = await event(c, 'a', 0);
      const withBody = await event(c, 'b', 0, 'failed');
      const append = (key: string, sourceEventId: number | null, d: number) =>
        store.feed.append({
          connection: c,
          type: 'reception.closed',
          dedupeKey: key,
          sourceEventId,
          data: {},
          at: day(d),
        });
      const { feedEntry: ofPruned } = await append('inbound:a', pruned, 1);
      const { feedEntry: ofBody } = await append('inbound:b', withBody, 1);
      const { feedEntry: drift } = await append('reconcile:1', null, 1);
      const { feedEntry: recent } = await append('reconcile:2', null, 100);
      await store.retention.pruneEventBodies('processed', day(10), day(10), false);
      expect(await store.retention.pruneFeed(day(50), true)).toBeGreaterThanOrEqual(2);
      await store.retention.pruneFeed(day(50), false);
      expect(await store.feed.get(c, ofPruned.id)).toBeUndefined();
      expect(await store.feed.get(c, drift.id)).toBeUndefined();
      expect(await store.feed.get(c, ofBody.id)).toBeDefined();
      expect(await store.feed.get(c, recent.id)).toBeDefined();
      // the feed goes on from any cursor
      expect((await store.feed.listAfter(c, 0, 10)).map((x) => x.id)).toEqual([ofBody.id, recent.id]);
    });

    it('finished reconciliation runs go with their items; unfinished runs and the baselines stay', async () => {
      const c = conn('runs');
      const finished = await store.reconciliation.createRun({ connection: c, trigger: 'api', at: day(0) });
      await store.reconciliation.startRun(finished.id, day(0));
      await store.reconciliation.addItems([
        { runId: finished.id, connection: c, productExternalCode: 'P', lotCode: null, status: 'drift', at: day(0) },
      ]);
      await store.reconciliation.saveSnapshots([
        {
          connection: c,
          productExternalCode: 'P',
          lotCode: null,
          existence: 3,
          available: 3,
          asOf: day(0),
          takenAt: day(0),
          runId: finished.id,
        },
      ]);
      await store.reconciliation.finishRun(finished.id, { status: 'completed', reason: null, at: day(0) });
      const interrupted = await store.reconciliation.createRun({ connection: c, trigger: 'api', at: day(0) });
      await store.reconciliation.interruptRun(interrupted.id, 'stopping', day(0));
      const queued = await store.reconciliation.createRun({ connection: c, trigger: 'api', at: day(0) });
      expect(await store.retention.pruneReconciliationRuns(day(30), true)).toMatchObject({ items: expect.any(Number) });
      const done = await store.retention.pruneReconciliationRuns(day(30), false);
      expect(done.runs).toBeGreaterThanOrEqual(1);
      expect(await store.reconciliation.getRun(finished.id)).toBeUndefined();
      expect(await store.reconciliation.listItems(finished.id, { limit: 10 })).toEqual([]);
      expect(await store.reconciliation.getRun(interrupted.id)).toBeDefined();
      expect(await store.reconciliation.getRun(queued.id)).toBeDefined();
      expect(await store.reconciliation.getSnapshot(c, 'P', null)).toMatchObject({ existence: 3 });
    });

    it('synced documents and cancels go by age; products, delivery points and unsynced documents stay', async () => {
      const c = conn('docs');
      const put = async (
        entity: 'product' | 'document' | 'document-cancel' | 'delivery-point',
        code: string,
        synced: boolean,
      ) => {
        const { record } = await store.pushes.upsert({
          connection: c,
          entity,
          externalCode: code,
          payload: { externalCode: code },
          payloadHash: `h-${code}`,
          at: day(0),
        });
        if (synced) await store.pushes.markSynced(record.id, `h-${code}`, day(0));
        return record.id;
      };
      const doc = await put('document', 'D1', true);
      const cancel = await put('document-cancel', 'D1', true);
      const product = await put('product', 'P1', true);
      const point = await put('delivery-point', 'DP1', true);
      const pending = await put('document', 'D2', false);
      await store.retention.pruneSyncedDocuments(day(30), false);
      expect(await store.pushes.getById(doc)).toBeUndefined();
      expect(await store.pushes.getById(cancel)).toBeUndefined();
      for (const id of [product, point, pending]) expect(await store.pushes.getById(id)).toBeDefined();
    });

    it('ledger: old movements are removed or rolled into an opening balance, and every figure reconciliation computes stays the same (property)', async () => {
      const movement = fc.record({
        pair: fc.integer({ min: 0, max: PAIRS.length - 1 }),
        q: fc.integer({ min: -50, max: 50 }),
        mt: fc.integer({ min: 0, max: 120 }),
        lag: fc.integer({ min: -1, max: 5 }),
      });
      const baseline = fc.record({
        pair: fc.integer({ min: 0, max: PAIRS.length - 1 }),
        existence: fc.integer({ min: 0, max: 500 }),
        asOf: fc.integer({ min: 0, max: 120 }),
        lag: fc.integer({ min: 0, max: 3 }),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(movement, { maxLength: 40 }),
          fc.array(baseline, { maxLength: 3 }),
          fc.integer({ min: 20, max: 100 }),
          async (ms, bs, cutoff) => {
            const c = conn('ledger');
            const moves: Movement[] = ms.map((m) => ({
              pair: m.pair,
              q: m.q,
              mt: m.mt,
              ca: Math.max(0, m.mt + m.lag),
            }));
            const rows: NewLedgerMovement[] = moves.map((m, i) => ({
              connection: c,
              productExternalCode: PAIRS[m.pair]![0],
              lotCode: PAIRS[m.pair]![1],
              warehouse: null,
              quantity: m.q,
              movementTime: day(m.mt),
              source: 'test',
              dedupeKey: `m${i}`,
              at: day(m.ca),
            }));
            await store.ledger.record(rows);
            const baselines = new Map<number, Baseline>();
            for (const b of bs)
              baselines.set(b.pair, { pair: b.pair, existence: b.existence, asOf: b.asOf, takenAt: b.asOf + b.lag });
            const snapshot = (b: Baseline): NewStockSnapshot => ({
              connection: c,
              productExternalCode: PAIRS[b.pair]![0],
              lotCode: PAIRS[b.pair]![1],
              existence: b.existence,
              available: null,
              asOf: day(b.asOf),
              takenAt: day(b.takenAt),
              runId: 1,
            });
            await store.reconciliation.saveSnapshots([...baselines.values()].map(snapshot));
            const products = [...new Set(PAIRS.map((p) => p[0]))];
            const cuts = [cutoff, cutoff + 7, 125, 200];
            for (const cut of cuts)
              expect(figures(await store.reconciliation.expected(c, products, day(cut)))).toEqual(
                model(moves, baselines, cut),
              );

            // (the store is shared by every case: counts cover other connections too; the rows of this one are checked below)
            const dry = await store.retention.pruneLedger(day(cutoff), true);
            expect(await store.retention.pruneLedger(day(cutoff), false)).toEqual(dry);
            const left = await store.ledger.list(c, { limit: 1000 });
            const young = moves.filter((m) => m.mt >= cutoff || m.ca >= cutoff).length;
            expect(left.filter((r) => r.source === 'test')).toHaveLength(young);
            const openings = left.filter((r) => r.source === 'opening-balance');
            expect(new Set(openings.map((r) => `${r.productExternalCode}/${r.lotCode}`)).size).toBe(openings.length);
            for (const cut of cuts)
              expect(figures(await store.reconciliation.expected(c, products, day(cut)))).toEqual(
                model(moves, baselines, cut),
              );
            // pruning again changes nothing
            expect(await store.retention.pruneLedger(day(cutoff), false)).toEqual({
              removed: 0,
              folded: 0,
              openings: 0,
            });

            // a later run takes new baselines: still the figures of the full ledger
            const later = new Map(
              [...baselines].map(([k, b]) => [k, { ...b, asOf: 130, takenAt: 131, existence: b.existence + 1 }]),
            );
            later.set(0, { pair: 0, existence: 7, asOf: 130, takenAt: 131 });
            await store.reconciliation.saveSnapshots([...later.values()].map(snapshot));
            for (const cut of [140, 200])
              expect(figures(await store.reconciliation.expected(c, products, day(cut)))).toEqual(
                model(moves, later, cut),
              );
          },
        ),
        { numRuns: 25 },
      );
    });

    it('ledger: a movement whose event still has its raw body is kept as it is', async () => {
      const c = conn('ledger-body');
      const id = await event(c, 'live', 0, 'failed');
      await store.ledger.record([
        {
          connection: c,
          productExternalCode: 'P',
          lotCode: null,
          warehouse: null,
          quantity: 4,
          movementTime: day(0),
          source: 'reception-close',
          dedupeKey: 'live#0',
          sourceEventId: id,
          at: day(0),
        },
      ]);
      await store.retention.pruneLedger(day(50), false);
      expect((await store.ledger.list(c, { limit: 10 })).map((m) => m.dedupeKey)).toEqual(['live#0']);
    });
  });
}
