/**
 * The adaptive limiter against the emulator's capacity model (src/emulator/capacity), on a
 * simulated clock: a discrete-event run where each call takes what the model says (the base
 * latency, a queue beyond the concurrency, 429 beyond the rate), 429s are retried after their
 * Retry-After as push jobs do, and 200 jobs feed each process (4 loops × 50). It shows the rules
 * reach bench:push's goals on any machine; bench:push measures the real thing.
 */
import { describe, expect, it } from 'vitest';
import { type CapacityInput, CapacityRegistry } from '../../src/emulator/capacity/registry.js';
import { ManualClock } from '../../src/lib/clock.js';
import { AdaptiveLimiter, type BudgetTable, type Sample, tableBudget } from '../../src/wms-client/index.js';

class Simulation {
  readonly clock = new ManualClock(0);
  #timers: { at: number; seq: number; fn: () => void }[] = [];
  #seq = 0;

  setTimer = (fn: () => void, ms: number): (() => void) => {
    const t = { at: this.clock.nowMs() + Math.max(0, ms), seq: this.#seq++, fn };
    this.#timers.push(t);
    return () => (this.#timers = this.#timers.filter((x) => x !== t));
  };

  sleep = (ms: number) => new Promise<void>((resolve) => this.setTimer(resolve, ms));

  /** Runs events in time order until `done()` or nothing is left. */
  async run(done: () => boolean): Promise<void> {
    await flush();
    while (!done()) {
      if (this.#timers.length === 0) throw new Error('simulation stalled');
      this.#timers.sort((x, y) => x.at - y.at || x.seq - y.seq);
      const t = this.#timers.shift()!;
      this.clock.set(Math.max(this.clock.nowMs(), t.at));
      t.fn();
      await flush();
    }
  }
}

const flush = () => new Promise((r) => setImmediate(r));

/** The store's shared budget, in memory (the Postgres and SQLite forms are tested in test/store). */
function memoryTable(): BudgetTable {
  let state: unknown = null;
  const holders = new Map<string, { demand: number; expires: number }>();
  return {
    exchange: async <S>(input: {
      connection: string;
      holder: string;
      demand: number;
      now: Date;
      leaseMs: number;
      update(s: S | null): S;
    }) => {
      const next = input.update(state as S | null);
      state = next;
      const now = input.now.getTime();
      for (const [h, v] of holders) if (v.expires < now) holders.delete(h);
      holders.set(input.holder, { demand: input.demand, expires: now + input.leaseMs });
      const totalDemand = [...holders.values()].reduce((sum, v) => sum + v.demand, 0);
      return { state: next as S, totalDemand, holders: holders.size };
    },
    leave: async (_c, holder) => void holders.delete(holder),
  };
}

interface Outcome {
  itemsPerSecond: number;
  calls: number;
  limited: number;
  peakInFlight: number;
}

/** `processes` clients (each its own limiter, sharing one budget when more than one) push `items` to one tenant. */
async function simulate(capacity: CapacityInput, items: number, processes = 1): Promise<Outcome> {
  const sim = new Simulation();
  const wms = new CapacityRegistry(sim.clock, sim.sleep, () => sim.clock.nowMs());
  wms.set('t', capacity);
  const table = memoryTable();
  const limiters = Array.from(
    { length: processes },
    (_, i) =>
      new AdaptiveLimiter({
        max: 64,
        initial: 8,
        clock: sim.clock,
        setTimer: sim.setTimer,
        ...(processes > 1 ? { shared: { budget: tableBudget(table), connection: 'c', holder: `p${i}` } } : {}),
      }),
  );
  let next = 0;
  let synced = 0;
  let calls = 0;
  let limited = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  const retries: number[] = [];
  const call = async (): Promise<void> => {
    calls += 1;
    const admission = wms.admit('t');
    if (!admission.ok) {
      limited += 1;
      throw Object.assign(new Error('429'), { retryAfterMs: admission.retryAfterSeconds * 1000 });
    }
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    await admission.serve(async () => undefined);
    inFlight -= 1;
  };
  const classify = (o: { ok: true } | { ok: false; error: unknown }, rttMs: number): Sample =>
    o.ok
      ? { kind: 'ok', rttMs, saturated: false }
      : { kind: 'overload', status: 429, retryAfterMs: (o.error as { retryAfterMs: number }).retryAfterMs };
  const job = async (limiter: AdaptiveLimiter) => {
    for (;;) {
      const item = retries.shift() ?? (next < items ? next++ : undefined);
      if (item === undefined) return;
      try {
        await limiter.run(call, classify);
        synced += 1;
      } catch (err) {
        // The push job comes back after the Retry-After; meanwhile its worker takes other jobs.
        sim.setTimer(() => retries.push(item), (err as { retryAfterMs: number }).retryAfterMs);
      }
    }
  };
  const jobs = limiters.flatMap((l) => Array.from({ length: 200 }, () => job(l)));
  // Jobs that found nothing to do end; retried items come back to a fresh job.
  const refill = () => {
    if (synced < items) {
      for (const l of limiters) if (retries.length > 0) void job(l);
      sim.setTimer(refill, 50);
    }
  };
  sim.setTimer(refill, 50);
  await sim.run(() => synced >= items);
  await Promise.all(jobs);
  const outcome = { itemsPerSecond: items / (sim.clock.nowMs() / 1000), calls, limited, peakInFlight };
  // SIM_TRACE=1 prints the figures (the report quotes them).
  if (process.env.SIM_TRACE) console.log(JSON.stringify({ capacity, processes, ...outcome }));
  return outcome;
}

describe('adaptive limiter against the emulated WMS capacity (simulated clock)', () => {
  it('50 ms, 64 at once, no rate limit: from 8 to at least 80 % of 64 / 50 ms = 1,280 items/s', async () => {
    const r = await simulate({ latencyMs: 50, concurrency: 64 }, 16_000);
    expect(r.itemsPerSecond).toBeGreaterThanOrEqual(0.8 * 1280);
    expect(r.limited).toBe(0);
  });

  it('rate limit 200/s (burst 20): at least 90 % of 200 items/s, under 2 % of calls answered 429', async () => {
    const r = await simulate({ latencyMs: 50, concurrency: 64, ratePerSecond: 200, burst: 20 }, 8_000);
    expect(r.itemsPerSecond).toBeGreaterThanOrEqual(0.9 * 200);
    expect(r.limited / r.calls).toBeLessThan(0.02);
  });

  it('two processes sharing one budget: together within the same limits, not double', async () => {
    const latency = await simulate({ latencyMs: 50, concurrency: 64 }, 16_000, 2);
    expect(latency.itemsPerSecond).toBeGreaterThanOrEqual(0.8 * 1280);
    expect(latency.peakInFlight).toBeLessThanOrEqual(64);
    const rate = await simulate({ latencyMs: 50, concurrency: 64, ratePerSecond: 200, burst: 20 }, 8_000, 2);
    expect(rate.itemsPerSecond).toBeGreaterThanOrEqual(0.9 * 200);
    expect(rate.limited / rate.calls).toBeLessThan(0.02);
  });
});
