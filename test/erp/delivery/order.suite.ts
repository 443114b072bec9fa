import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import { createPgStore } from '../../../src/store/pg/store.js';
import type { Store } from '../../../src/store/types.js';
import { until } from '../../support/wait.js';
import { deliveryHarness, type Harness } from './harness.js';

/** Statuses an ERP may answer before it accepts: every one is retried. */
const FAILURES = [500, 502, 503, 408, 409, 425, 429] as const;

const eventArb = fc.record({
  doc: fc.boolean(),
  key: fc.integer({ min: 0, max: 4 }),
  /** Failed answers before the ERP accepts this event. */
  failures: fc.array(fc.constantFrom(...FAILURES), { maxLength: 3 }),
});

/**
 * Order of ERP deliveries, as a property: for random event sequences and random failures, each business
 * key's events reach the ERP in feed order, and each webhook-id is accepted exactly once; keys do
 * not wait for each other. With `workers: 2` (Postgres), two workers on two stores (two
 * processes' views of one database) share the deliveries.
 */
export function orderSuite(dialect: 'sqlite' | 'postgres', workers: 1 | 2): void {
  // Generous per-test deadline: a busy machine slows every run; nothing here waits on the clock.
  describe(`order per business key (${dialect}, ${workers} worker${workers > 1 ? 's' : ''})`, {
    timeout: 120_000,
  }, () => {
    let h: Harness;
    let second: Store | undefined;
    let plan = new Map<string, number[]>();
    const clock = new ManualClock(Date.now()); // near the real time: the receiver checks the signature's timestamp (5 min tolerance)

    beforeAll(async () => {
      h = await deliveryHarness({
        label: `order-${dialect}`,
        dialect,
        clock,
        // Retries are due at once (the clock does not move), so a run ends quickly; never dead.
        settings: { retryScheduleMs: Array.from({ length: 20 }, () => 0), concurrency: 8 },
        answer: (id, _body, hit) => {
          const failures = plan.get(id) ?? [];
          return hit <= failures.length ? { status: failures[hit - 1]! } : { status: 200 };
        },
      });
      h.startWorker();
      if (workers === 2) {
        const { env } = h.svc.deps.config;
        second = createPgStore({ url: env.DATABASE_URL!, schema: env.DATABASE_SCHEMA, poolSize: 4 });
        h.startWorker({}, second);
      }
    });
    afterAll(async () => {
      await h.close();
      await second?.close();
    });

    it('each key in feed order, each webhook-id accepted once, whatever fails', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 25 }), async (events) => {
          run++;
          plan = new Map();
          const start = h.receiver.receipts.length;
          const keyOf = new Map<string, string>();
          const expected = new Map<string, string[]>();
          for (const [i, e] of events.entries()) {
            const data = e.doc
              ? { documentExternalCode: `R${run}-D${e.key}` }
              : { productExternalCode: `R${run}-P${e.key}`, lotCode: 'L1', quantity: i };
            // With two workers, half the events are written through the second store, as another process would.
            const c = await h.append(
              e.doc ? 'reception.closed' : 'stock.adjusted',
              data,
              second && i % 2 === 1 ? second : undefined,
            );
            const id = `evt_acme_${c.id}`;
            plan.set(id, e.failures);
            const key = e.doc ? `doc:R${run}-D${e.key}` : `lot:R${run}-P${e.key}|L1`;
            keyOf.set(id, key);
            expected.set(key, [...(expected.get(key) ?? []), id]);
          }
          await h.receiver.received(start + events.length);
          const got = h.receiver.receipts.slice(start);
          expect(got).toHaveLength(events.length);
          expect(new Set(got.map((r) => r.id)).size).toBe(events.length);
          const received = new Map<string, string[]>();
          for (const r of got) received.set(keyOf.get(r.id)!, [...(received.get(keyOf.get(r.id)!) ?? []), r.id]);
          expect(received).toEqual(expected);
        }),
        { numRuns: dialect === 'postgres' ? 8 : 20 },
      );
      // Nothing arrived twice across all runs, and nothing is left pending.
      const ids = h.receiver.receipts.map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      // The last attempts are written just after the receiver has them.
      await until(async () => (await h.store.erpDeliveries.count({ status: 'pending' })) === 0, {
        message: 'deliveries still pending',
      });
      expect(await h.store.erpDeliveries.count({ status: 'dead' })).toBe(0);
      expect(h.receiver.badSignatures).toBe(0);
    });

    it('a document whose ERP call hangs does not hold the other keys (no head-of-line blocking)', async () => {
      plan = new Map();
      const hang = new Set<string>();
      h.receiver.setAnswer((id) => (hang.has(id) ? 'hang' : { status: 200 }));
      const stuck = await h.append('reception.closed', { documentExternalCode: 'STUCK' });
      hang.add(`evt_acme_${stuck.id}`);
      const later = await h.append('reception.closed', { documentExternalCode: 'STUCK' });
      const start = h.receiver.receipts.length;
      const others = [];
      for (let i = 0; i < 5; i++) others.push(await h.append('shipment.closed', { documentExternalCode: `FREE-${i}` }));
      await h.receiver.received(start + 5);
      expect(new Set(h.receiver.receipts.slice(start).map((r) => r.id))).toEqual(
        new Set(others.map((o) => `evt_acme_${o.id}`)),
      );
      // The same document's next event waits for the first, then follows it.
      await until(() => h.receiver.heldCount === 1);
      h.receiver.releaseHeld(200);
      await h.receiver.received(start + 7);
      expect(h.receiver.receipts.slice(start + 5).map((r) => r.id)).toEqual([
        `evt_acme_${stuck.id}`,
        `evt_acme_${later.id}`,
      ]);
    });
  });
}
