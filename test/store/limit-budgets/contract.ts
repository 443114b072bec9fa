import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.js';
import type { Store } from '../../../src/store/index.js';
import { AdaptiveLimiter, type Sample, tableBudget } from '../../../src/wms-client/index.js';

/** Two stores on one database: two processes of one deployment. */
export type OpenPair = () => Promise<{ a: Store; b: Store; close: () => Promise<void> }>;

/** Calls the test ends itself, each with the sample its end should teach the limiter. */
function calls(limiter: AdaptiveLimiter) {
  const open: { end: (sample: Sample) => void }[] = [];
  let started = 0;
  const finished: Promise<unknown>[] = [];
  return {
    get started() {
      return started;
    },
    /** Queues `n` calls (they start as the limiter lets them). */
    add(n: number) {
      for (let i = 0; i < n; i++) {
        let sample: Sample | undefined;
        finished.push(
          limiter
            .run(
              () =>
                new Promise<void>((resolve, reject) => {
                  started += 1;
                  open.push({ end: (s) => ((sample = s), s.kind === 'ok' ? resolve() : reject(new Error(s.kind))) });
                }),
              () => sample,
            )
            .catch(() => undefined),
        );
      }
    },
    /** Ends the `n` oldest running calls with `sample`. */
    async end(n: number, sample: Sample) {
      for (const c of open.splice(0, n)) c.end(sample);
      await new Promise((r) => setImmediate(r));
    },
    running: () => open.length,
    all: () => Promise.all(finished),
  };
}

const flush = () => new Promise((r) => setImmediate(r));

export function limitBudgetContract(dialect: string, openPair: OpenPair): void {
  describe(`shared WMS concurrency budget (${dialect})`, () => {
    it('two limiters on one database run one limit: shares add up to it, growth and a 429 seen by one apply to both, a crashed one gives its share back', async () => {
      const { a: storeA, b: storeB, close } = await openPair();
      try {
        const clock = new ManualClock(1_000_000);
        const make = (store: Store, holder: string) =>
          // No timer ever fires: the test says when each process exchanges.
          new AdaptiveLimiter({
            max: 16,
            initial: 8,
            clock,
            setTimer: () => () => undefined,
            shared: { budget: tableBudget(store.limitBudgets, { leaseMs: 5000 }), connection: 'acme', holder },
          });
        const a = make(storeA, 'A');
        const b = make(storeB, 'B');
        await a.sync();
        await b.sync();
        await a.sync();
        // nobody has work yet: an equal part each
        expect([a.allowed, b.allowed]).toEqual([4, 4]);

        const ca = calls(a);
        const cb = calls(b);
        ca.add(30);
        cb.add(30);
        await flush();
        expect(ca.running() + cb.running()).toBe(8);
        // shares follow the demands each exchange reports: once both have reported, they add up to the limit
        await a.sync();
        await b.sync();
        await a.sync();
        expect([a.allowed, b.allowed]).toEqual([4, 4]);

        // A's successes make the deployment's limit grow; B sees the same limit after its exchange
        clock.advance(50);
        await ca.end(4, { kind: 'ok', rttMs: 50, saturated: true });
        await a.sync();
        await b.sync();
        const grown = a.limit;
        expect(grown).toBeGreaterThan(8);
        expect(b.limit).toBe(grown);
        await a.sync();
        expect(a.allowed + b.allowed).toBeLessThanOrEqual(grown);
        await flush();
        expect(ca.running() + cb.running()).toBeLessThanOrEqual(grown);

        // a 429 with Retry-After seen by B pauses A as well, and halves the shared limit
        clock.advance(100);
        await cb.end(1, { kind: 'overload', status: 429, retryAfterMs: 2000 });
        await b.sync();
        await a.sync();
        expect(a.limit).toBe(Math.floor(grown / 2));
        expect(b.limit).toBe(Math.floor(grown / 2));
        expect(a.pausedUntil).toBe(clock.nowMs() + 2000);
        const before = ca.started;
        await ca.end(ca.running(), { kind: 'ok', rttMs: 50, saturated: true });
        await flush();
        expect(ca.started).toBe(before);
        expect(b.rateLimited).toBe(1);

        // A stops exchanging (a crash): after its lease B has the whole limit
        clock.advance(6000);
        await b.sync();
        expect(b.allowed).toBe(b.limit);

        // a clean stop gives the share back at once
        await a.close();
        clock.advance(1);
        await b.sync();
        expect(b.allowed).toBe(b.limit);
        await ca.end(100, { kind: 'ok', rttMs: 50, saturated: false });
        await cb.end(100, { kind: 'ok', rttMs: 50, saturated: false });
        await b.close();
      } finally {
        await close();
      }
    });

    it("a 429 seen by one process sets the deployment's pace: each starts at its part, the parts add up to it", async () => {
      const { a: storeA, b: storeB, close } = await openPair();
      try {
        const clock = new ManualClock(1_000_000);
        const make = (store: Store, holder: string) =>
          new AdaptiveLimiter({
            max: 64,
            initial: 64,
            clock,
            setTimer: () => () => undefined,
            shared: { budget: tableBudget(store.limitBudgets, { leaseMs: 5000 }), connection: 'acme', holder },
          });
        const a = make(storeA, 'A');
        const b = make(storeB, 'B');
        const ca = calls(a);
        const cb = calls(b);
        await a.sync();
        await b.sync();
        ca.add(100);
        cb.add(20);
        await flush();
        // A delivers 40 calls 5 ms apart (200/s), then B is refused with a Retry-After of 1 s
        for (let i = 0; i < 40; i++) {
          clock.advance(5);
          await ca.end(1, { kind: 'ok', rttMs: 50, saturated: true });
        }
        await a.sync();
        await b.sync();
        await cb.end(1, { kind: 'overload', status: 429, retryAfterMs: 1000 });
        await b.sync();
        await a.sync();
        expect(a.pace).toBeCloseTo(180, 0);
        expect(b.pace).toBe(a.pace);
        // a short Retry-After does not pause a paced deployment
        expect(a.pausedUntil).toBeLessThanOrEqual(clock.nowMs());
        // parts in proportion to the demands each reported (A has about three times B's)
        await b.sync();
        await a.sync();
        expect(a.ownPace! + b.ownPace!).toBeCloseTo(a.pace!, 6);
        expect(a.ownPace!).toBeGreaterThan(b.ownPace!);
        await ca.end(100, { kind: 'ok', rttMs: 50, saturated: false });
        await cb.end(100, { kind: 'ok', rttMs: 50, saturated: false });
        await a.close();
        await b.close();
      } finally {
        await close();
      }
    });

    it('keeps one state per connection, and a lowered ceiling applies to the stored limit', async () => {
      const { a: storeA, b: storeB, close } = await openPair();
      try {
        const clock = new ManualClock(0);
        const budget = tableBudget(storeA.limitBudgets);
        const big = new AdaptiveLimiter({
          max: 64,
          initial: 40,
          clock,
          shared: { budget, connection: 'one', holder: 'A' },
        });
        await big.sync();
        expect(big.limit).toBe(40);
        const small = new AdaptiveLimiter({
          max: 10,
          initial: 8,
          clock,
          shared: { budget: tableBudget(storeB.limitBudgets), connection: 'one', holder: 'B' },
        });
        await small.sync();
        expect(small.limit).toBe(10);
        const other = new AdaptiveLimiter({
          max: 64,
          initial: 3,
          clock,
          shared: { budget, connection: 'two', holder: 'A' },
        });
        await other.sync();
        expect(other.limit).toBe(3);
      } finally {
        await close();
      }
    });
  });
}
