import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundMetrics } from '../../src/inbound/metrics.js';
import { processEvent } from '../../src/inbound/process-event.js';
import { retryEvent } from '../../src/inbound/retry-event.js';
import { ManualClock } from '../../src/lib/clock.js';
import { runPrune } from '../../src/retention/prune.js';
import type { AnyStore } from '../../src/store/index.js';
import { fixture, postWebhook } from '../inbound/support.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';

const DAY = 24 * 60 * 60 * 1000;
const DAYS = 60;
const RETENTION = {
  INBOUND_RETENTION_DAYS: '10',
  INBOUND_REJECTED_RETENTION_DAYS: '5',
  DEDUPE_RETENTION_DAYS: '30',
  FEED_RETENTION_DAYS: '15',
  LEDGER_RETENTION_DAYS: '15',
  RECONCILE_RETENTION_DAYS: '20',
};
const TABLES = [
  'inbound_events',
  'feed_entries',
  'stock_ledger',
  'reconciliation_runs',
  'reconciliation_items',
] as const;

async function sizes(store: AnyStore): Promise<Record<string, number>> {
  const queries: Record<string, string> = Object.fromEntries(TABLES.map((t) => [t, `SELECT count(*) AS n FROM ${t}`]));
  queries.bodies = "SELECT count(*) AS n FROM inbound_events WHERE payload <> ''";
  queries.bodyBytes = 'SELECT coalesce(sum(length(payload)), 0) AS n FROM inbound_events';
  const out: Record<string, number> = {};
  for (const [name, sql] of Object.entries(queries)) {
    out[name] =
      store.dialect === 'sqlite'
        ? Number((store.database.raw.prepare(sql).get() as { n: number }).n)
        : Number((await store.database.pool.query<{ n: string }>(sql)).rows[0]!.n);
  }
  return out;
}

/**
 * Months of traffic on the injected clock, with the daily prune: every table stops growing once its
 * retention is reached, the dedupe of an event whose raw body is gone still works, and the figures
 * reconciliation computes do not move when the ledger is pruned.
 */
export function growthSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`retention keeps growth bounded over simulated months (${dialect})`, () => {
    const clock = new ManualClock(new Date('2026-03-01T08:00:00Z'));
    const acme = testConnection('acme');
    let svc: TestService;
    const posted: { day: number; kind: string; body: string }[] = [];
    const history: Record<string, number>[] = [];

    beforeAll(async () => {
      svc = await startTestService({ label: `growth-${dialect}`, dialect, clock, connections: [acme], env: RETENTION });
      const metrics = inboundMetrics(svc.deps.metrics);
      const post = async (kind: string, body: string) => {
        const res = await postWebhook(svc.app, acme, kind, body);
        posted.push({ day: history.length, kind, body });
        return res;
      };
      for (let d = 0; d < DAYS; d++) {
        const reception = { ...fixture('reception-close'), closingDocumentCode: `REC-${d}` };
        const stock = {
          ...fixture('stock-regularization'),
          quantity: (d % 7) - 3 || 1,
          movementTime: clock.now().toISOString(),
        };
        for (const [kind, body] of [
          ['reception-close', reception],
          ['stock-regularization', stock],
        ] as const)
          expect((await post(kind, JSON.stringify(body))).status).toBe(200);
        expect((await post('reception-close', `{"broken": ${d}`)).status).toBe(400);
        for (const e of await svc.deps.store.inbox.list({ status: 'received', limit: 100 }))
          await processEvent({ store: svc.deps.store, clock, metrics }, e.id);
        if (d % 7 === 6) {
          // a weekly reconciliation that matched: new baselines equal to what is expected, one item
          const run = await svc.deps.store.reconciliation.createRun({
            connection: 'acme',
            trigger: 'schedule',
            at: clock.now(),
          });
          await svc.deps.store.reconciliation.startRun(run.id, clock.now());
          const expected = await svc.deps.store.reconciliation.expected(
            'acme',
            ['MILK-UHT-1L', 'YOG-NAT-125', 'SCALE-KIT-01'],
            clock.now(),
          );
          await svc.deps.store.reconciliation.saveSnapshots(
            expected.map((f) => ({
              connection: 'acme',
              productExternalCode: f.productExternalCode,
              lotCode: f.lotCode,
              existence: (f.baseline ?? 0) + f.movements,
              available: null,
              asOf: clock.now(),
              takenAt: new Date(clock.nowMs() + 1),
              runId: run.id,
            })),
          );
          await svc.deps.store.reconciliation.addItems([
            {
              runId: run.id,
              connection: 'acme',
              productExternalCode: 'MILK-UHT-1L',
              lotCode: 'U2611A',
              status: 'unsettled',
              at: clock.now(),
            },
          ]);
          await svc.deps.store.reconciliation.finishRun(run.id, { status: 'completed', reason: null, at: clock.now() });
        }
        clock.advance(DAY / 2);
        await runPrune(svc.deps);
        history.push(await sizes(svc.deps.store));
        clock.advance(DAY / 2);
      }
    }, 60_000);
    afterAll(() => svc.close());

    it('every table stops growing once its retention is reached', () => {
      const settled = history[40]!;
      const last = history[DAYS - 1]!;
      for (const [name, n] of Object.entries(last)) {
        if (name === 'bodyBytes') continue;
        // a weekly run makes counts wobble by what one week adds; growth would be a whole month's more
        expect(
          Math.abs(n - settled[name]!),
          `${name}: day 40 ${settled[name]}, day ${DAYS - 1} ${n}`,
        ).toBeLessThanOrEqual(3);
      }
      // hard bounds from the settings: 3 deliveries and 2 feed entries a day, the reception's lines
      // and the regularization as movements, at most one opening balance per product/lot
      const lines = (
        fixture('reception-close').lines as { externalCode: string; lotCode?: string | null; quantity: number }[]
      ).filter((l) => l.quantity !== 0);
      const pairs = new Set([...lines.map((l) => `${l.externalCode}/${l.lotCode ?? ''}`), 'MILK-UHT-1L/U2611A']).size;
      expect(last.bodies).toBeLessThanOrEqual(2 * (10 + 1) + (5 + 1));
      expect(last.inbound_events).toBeLessThanOrEqual(3 * (30 + 1));
      expect(last.feed_entries).toBeLessThanOrEqual(2 * (15 + 1));
      expect(last.stock_ledger).toBeLessThanOrEqual((lines.length + 1) * (15 + 1) + pairs);
      expect(last.reconciliation_runs).toBeLessThanOrEqual(20 / 7 + 2);
      expect(last.bodyBytes!).toBeLessThanOrEqual(history[12]!.bodyBytes! + 2000);
    });

    it('a late re-delivery of an event whose raw body was pruned is still a duplicate: acknowledged, not processed again', async () => {
      const old = posted.find(
        (p) => p.day === DAYS - 20 && p.kind === 'reception-close' && !p.body.startsWith('{"broken'),
      )!;
      const stored = (await svc.deps.store.inbox.findByKey('acme', `reception-close:REC-${DAYS - 20}`))!;
      expect(stored).toMatchObject({ status: 'processed', payload: '' });
      const feed = (await svc.deps.store.feed.listAfter('acme', 0, 1000)).length;
      const res = await postWebhook(svc.app, acme, old.kind, old.body);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, message: expect.stringContaining('Already received') });
      expect(await svc.deps.store.inbox.findByKey('acme', stored.dedupeKey)).toMatchObject({
        id: stored.id,
        duplicates: 1,
        payload: '',
      });
      expect(await svc.deps.store.inbox.list({ status: 'received', limit: 10 })).toEqual([]);
      expect((await svc.deps.store.feed.listAfter('acme', 0, 1000)).length).toBe(feed);
      // and it cannot be processed again: nothing is left to process
      expect(await retryEvent(svc.deps, stored.id)).toEqual({ ok: false, reason: 'pruned' });
    });

    it('pruning the ledger does not move the figures reconciliation computes', async () => {
      const products = ['MILK-UHT-1L', 'YOG-NAT-125', 'SCALE-KIT-01'];
      const before = await svc.deps.store.reconciliation.expected('acme', products, clock.now());
      clock.advance(20 * DAY);
      const [ledger] = (await runPrune(svc.deps)).filter((r) => r.step === 'stock-ledger');
      expect(ledger!.counts.removed! + ledger!.counts.folded!).toBeGreaterThan(0);
      const after = await svc.deps.store.reconciliation.expected('acme', products, new Date(clock.nowMs() - 20 * DAY));
      const sum = (fs: typeof before) =>
        Object.fromEntries(fs.map((f) => [`${f.productExternalCode}/${f.lotCode}`, (f.baseline ?? 0) + f.movements]));
      expect(sum(after)).toEqual(sum(before));
    });
  });
}
