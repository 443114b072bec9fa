import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import {
  AdaptiveLimiter,
  DEFAULT_RULES,
  initialState,
  type LimitRules,
  type LimitState,
  onSample,
  permits,
  type Sample,
} from '../../src/wms-client/index.js';

const rules: LimitRules = { ...DEFAULT_RULES, initial: 8, max: 64 };
const ok = (rttMs = 50): Sample => ({ kind: 'ok', rttMs, saturated: true });
const run = (state: LimitState, samples: Sample[], clock: ManualClock, stepMs = 0, r = rules) =>
  samples.reduce((s, sample) => {
    clock.advance(stepMs);
    return onSample(r, s, sample, clock.nowMs());
  }, state);

describe('limit rules', () => {
  it('slow start: one more per success until the first sign of overload (doubling every round trip)', () => {
    const clock = new ManualClock(0);
    const s = run(
      initialState(rules, 0),
      Array.from({ length: 8 }, () => ok()),
      clock,
    );
    expect(permits(s)).toBe(16);
    expect(s.slowStart).toBe(true);
  });

  it('never grows past the ceiling (WMS_MAX_CONCURRENCY) and never below one', () => {
    const clock = new ManualClock(0);
    const s = run(
      initialState(rules, 0),
      Array.from({ length: 500 }, () => ok()),
      clock,
      1,
    );
    expect(permits(s)).toBe(64);
    let down = s;
    for (let i = 0; i < 20; i++) {
      clock.advance(1000);
      down = onSample(rules, down, { kind: 'timeout' }, clock.nowMs());
    }
    expect(permits(down)).toBe(1);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constant<Sample>({ kind: 'timeout' }),
            fc.integer({ min: 1, max: 500 }).map((ms) => ok(ms)),
          ),
          { maxLength: 300 },
        ),
        (samples) => {
          const c = new ManualClock(0);
          const end = run(initialState(rules, 0), samples, c, 7);
          expect(end.limit).toBeLessThanOrEqual(64);
          expect(end.limit).toBeGreaterThanOrEqual(1);
        },
      ),
    );
  });

  it('an idle connection does not grow: successes while the limit is not in use prove nothing', () => {
    const clock = new ManualClock(0);
    const s = run(
      initialState(rules, 0),
      Array.from({ length: 50 }, () => ({ kind: 'ok', rttMs: 50, saturated: false }) as Sample),
      clock,
    );
    expect(permits(s)).toBe(8);
  });

  it('after the first decrease: additive increase, one per limit of successes', () => {
    const clock = new ManualClock(0);
    let s = onSample(rules, { ...initialState(rules, 0), limit: 20 }, { kind: 'overload', status: 503 }, 0);
    expect(permits(s)).toBe(10);
    clock.advance(1000);
    s = run(
      s,
      Array.from({ length: 9 }, () => ok()),
      clock,
    );
    expect(permits(s)).toBe(10);
    s = run(
      s,
      Array.from({ length: 2 }, () => ok()),
      clock,
    );
    expect(permits(s)).toBe(11);
  });

  it('halves on 429, 503 and timeouts, once per round trip', () => {
    for (const sample of [
      { kind: 'overload', status: 429 },
      { kind: 'overload', status: 503 },
      { kind: 'timeout' },
    ] as Sample[]) {
      const clock = new ManualClock(0);
      let s = run({ ...initialState(rules, 0), limit: 40 }, [ok(50), ok(50)], clock);
      s = onSample(rules, s, sample, clock.nowMs());
      expect(permits(s)).toBe(21);
      // the other calls of the same round trip report the same overload
      clock.advance(10);
      s = onSample(rules, s, sample, clock.nowMs());
      expect(permits(s)).toBe(21);
      clock.advance(100);
      s = onSample(rules, s, sample, clock.nowMs());
      expect(permits(s)).toBe(10);
    }
  });

  it('backs off a tenth when the latency rises well above the no-load latency', () => {
    const clock = new ManualClock(0);
    let s = run(
      { ...initialState(rules, 0), limit: 40, slowStart: false },
      Array.from({ length: 40 }, () => ok(50)),
      clock,
      1,
    );
    const before = permits(s);
    // a spike is not queueing
    s = run(
      s,
      Array.from({ length: 3 }, () => ok(300)),
      clock,
      1,
    );
    expect(permits(s)).toBeGreaterThanOrEqual(before);
    s = run(
      s,
      Array.from({ length: 150 }, () => ok(130)),
      clock,
      1,
    );
    expect(permits(s)).toBeLessThan(before);
    expect(permits(s)).toBeGreaterThanOrEqual(Math.floor(before * 0.9 * 0.9) - 1);
    // a fast WMS's jitter (1 ms → 3 ms) is not queueing
    let fast = run(
      { ...initialState(rules, 0), limit: 40, slowStart: false },
      Array.from({ length: 40 }, () => ok(1)),
      clock,
      1,
    );
    const fastBefore = permits(fast);
    fast = run(
      fast,
      Array.from({ length: 40 }, () => ok(3)),
      clock,
      1,
    );
    expect(permits(fast)).toBeGreaterThanOrEqual(fastBefore);
  });

  it("a busy client's own event-loop lag is not the WMS queueing", () => {
    const clock = new ManualClock(0);
    const start = run(
      { ...initialState(rules, 0), limit: 40, slowStart: false },
      Array.from({ length: 40 }, () => ok(50)),
      clock,
      1,
    );
    const lagging = run(
      start,
      Array.from({ length: 150 }, () => ({ kind: 'ok', rttMs: 130, saturated: true, lagMs: 80 }) as Sample),
      clock,
      1,
    );
    expect(permits(lagging)).toBeGreaterThanOrEqual(permits(start));
    const queueing = run(
      start,
      Array.from({ length: 150 }, () => ({ kind: 'ok', rttMs: 130, saturated: true, lagMs: 5 }) as Sample),
      clock,
      1,
    );
    expect(permits(queueing)).toBeLessThan(permits(start));
  });

  it('a 429 once the delivery rate is known: a pace a tenth under it, no halving, no pause for a 1 s Retry-After', () => {
    const clock = new ManualClock(0);
    // 40 calls answered 5 ms apart: 200 calls/s delivered
    let s = run(
      { ...initialState(rules, 0), limit: 20 },
      Array.from({ length: 40 }, () => ok()),
      clock,
      5,
    );
    s = onSample(rules, s, { kind: 'overload', status: 429, retryAfterMs: 1000 }, clock.nowMs());
    expect(s.pace?.perSecond).toBeCloseTo(180, 0);
    expect(s.slowStart).toBe(false);
    expect(permits(s)).toBe(60);
    expect(s.pausedUntil).toBe(0);
    // the other calls of the same round trip report the same excess: one decrease per round trip
    clock.advance(10);
    s = onSample(rules, s, { kind: 'overload', status: 429, retryAfterMs: 1000 }, clock.nowMs());
    expect(s.pace?.perSecond).toBeCloseTo(180, 0);
    // a round trip later: a tenth under the lower of the pace and what was delivered
    clock.advance(50);
    s = onSample(rules, s, { kind: 'overload', status: 429, retryAfterMs: 1000 }, clock.nowMs());
    expect(s.pace?.perSecond).toBeCloseTo(162, 0);
  });

  it('a paced connection still pauses for a Retry-After longer than shortRetryAfterMs', () => {
    const clock = new ManualClock(0);
    let s = run(
      initialState(rules, 0),
      Array.from({ length: 40 }, () => ok()),
      clock,
      5,
    );
    s = onSample(rules, s, { kind: 'overload', status: 429, retryAfterMs: 5000 }, clock.nowMs());
    expect(s.pace).not.toBeNull();
    expect(s.pausedUntil).toBe(clock.nowMs() + 5000);
  });

  it('a 429 before any rate is known halves the limit and pauses for its Retry-After', () => {
    const clock = new ManualClock(0);
    let s = run({ ...initialState(rules, 0), limit: 20 }, [ok(), ok()], clock, 5);
    s = onSample(rules, s, { kind: 'overload', status: 429, retryAfterMs: 1000 }, clock.nowMs());
    expect(s.pace).toBeNull();
    expect(permits(s)).toBe(11);
    expect(s.pausedUntil).toBe(clock.nowMs() + 1000);
  });

  it('the pace grows by rateGrowth per second while calls wait on it, and only then', () => {
    const clock = new ManualClock(0);
    let s = run(
      initialState(rules, 0),
      Array.from({ length: 40 }, () => ok()),
      clock,
      5,
    );
    s = onSample(rules, s, { kind: 'overload', status: 429, retryAfterMs: 1000 }, clock.nowMs());
    const start = s.pace!.perSecond;
    const idle = run(
      s,
      Array.from({ length: 200 }, () => ({ kind: 'ok', rttMs: 50, saturated: false }) as Sample),
      clock,
      10,
    );
    expect(idle.pace!.perSecond).toBe(start);
    const waiting = run(
      idle,
      Array.from({ length: 200 }, () => ({ kind: 'ok', rttMs: 50, saturated: false, paced: true }) as Sample),
      clock,
      10,
    );
    // 2 s of calls waiting on the pace: about 5 % a second, compounded per sample
    expect(waiting.pace!.perSecond).toBeGreaterThan(start * 1.1);
    expect(waiting.pace!.perSecond).toBeLessThan(start * 1.11);
  });

  it('a Retry-After beyond maxPauseMs pauses maxPauseMs', () => {
    const s = onSample(rules, initialState(rules, 0), { kind: 'overload', status: 503, retryAfterMs: 3_600_000 }, 0);
    expect(s.pausedUntil).toBe(rules.maxPauseMs);
  });
});

/** Timers on the manual clock: due ones run when the test advances it. */
function manualTimers(clock: ManualClock) {
  let timers: { at: number; fn: () => void }[] = [];
  return {
    setTimer: (fn: () => void, ms: number) => {
      const t = { at: clock.nowMs() + ms, fn };
      timers.push(t);
      return () => (timers = timers.filter((x) => x !== t));
    },
    advance(ms: number) {
      clock.advance(ms);
      const due = timers.filter((t) => t.at <= clock.nowMs());
      timers = timers.filter((t) => t.at > clock.nowMs());
      for (const t of due) t.fn();
    },
  };
}

const flush = () => new Promise((r) => setImmediate(r));
const okCall = (rttMs: number): Sample => ({ kind: 'ok', rttMs, saturated: false });

describe('AdaptiveLimiter', () => {
  it('never runs more than its limit at once, runs everything, in arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 60 }),
        async (max, ticks) => {
          const clock = new ManualClock(0);
          const limiter = new AdaptiveLimiter({ max, initial: 1, clock });
          let running = 0;
          let peak = 0;
          const started: number[] = [];
          await Promise.all(
            ticks.map((t, i) =>
              limiter.run(
                async () => {
                  started.push(i);
                  running += 1;
                  peak = Math.max(peak, running);
                  expect(running).toBeLessThanOrEqual(limiter.allowed);
                  for (let k = 0; k < t; k++) await Promise.resolve();
                  running -= 1;
                },
                () => okCall(1),
              ),
            ),
          );
          expect(peak).toBeLessThanOrEqual(max);
          expect(started).toEqual(ticks.map((_, i) => i));
          expect(limiter.active).toBe(0);
        },
      ),
    );
  });

  it('frees the slot when the call throws', async () => {
    const limiter = new AdaptiveLimiter({ max: 1, clock: new ManualClock(0) });
    await expect(
      limiter.run(
        async () => Promise.reject(new Error('boom')),
        () => undefined,
      ),
    ).rejects.toThrow('boom');
    expect(
      await limiter.run(
        async () => 'next',
        () => undefined,
      ),
    ).toBe('next');
  });

  it('starts at the initial limit and grows while the limit is in use', async () => {
    const clock = new ManualClock(0);
    const limiter = new AdaptiveLimiter({ max: 32, initial: 4, clock });
    expect(limiter.limit).toBe(4);
    await Promise.all(
      Array.from({ length: 40 }, () =>
        limiter.run(
          async () => flush(),
          () => okCall(50),
        ),
      ),
    );
    expect(limiter.limit).toBeGreaterThan(4);
    expect(limiter.limit).toBeLessThanOrEqual(32);
  });

  it('a 429 with Retry-After pauses the whole connection until then, and is counted', async () => {
    const clock = new ManualClock(0);
    const timers = manualTimers(clock);
    const limiter = new AdaptiveLimiter({ max: 8, initial: 8, clock, setTimer: timers.setTimer });
    await expect(
      limiter.run(
        async () => Promise.reject(new Error('429')),
        () => ({ kind: 'overload', status: 429, retryAfterMs: 2000 }),
      ),
    ).rejects.toThrow();
    expect(limiter.rateLimited).toBe(1);
    expect(limiter.limit).toBe(4);
    let ran = false;
    const next = limiter.run(
      async () => (ran = true),
      () => okCall(1),
    );
    await flush();
    expect(ran).toBe(false);
    expect(limiter.waiting).toBe(1);
    timers.advance(1999);
    await flush();
    expect(ran).toBe(false);
    timers.advance(1);
    await next;
    expect(ran).toBe(true);
  });

  it('once paced, starts calls no faster than the pace, in arrival order', async () => {
    const clock = new ManualClock(0);
    const timers = manualTimers(clock);
    const limiter = new AdaptiveLimiter({ max: 64, initial: 64, clock, setTimer: timers.setTimer });
    // 20 calls answered 10 ms apart (100/s), then a 429 with Retry-After 1 s: a pace of 90 calls/s
    for (let i = 0; i < 20; i++) {
      timers.advance(10);
      await limiter.run(
        async () => undefined,
        () => okCall(50),
      );
    }
    await expect(
      limiter.run(
        async () => Promise.reject(new Error('429')),
        () => ({ kind: 'overload', status: 429, retryAfterMs: 1000 }),
      ),
    ).rejects.toThrow();
    expect(limiter.pace).toBeCloseTo(90, 0);
    expect(limiter.limit).toBe(64);
    const started: number[] = [];
    const calls = Array.from({ length: 10 }, (_, i) =>
      limiter.run(
        async () => void started.push(i),
        () => okCall(1),
      ),
    );
    await flush();
    // the 429 emptied the starts: none before one interval (1000 / 90 ms)
    timers.advance(10);
    await flush();
    expect(started).toEqual([]);
    for (let ms = 0; ms < 1000 && started.length < 10; ms++) {
      timers.advance(1);
      await flush();
    }
    await Promise.all(calls);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // ten starts at 90/s take about 10 intervals, not one burst
    expect(clock.nowMs() - 200 - 1).toBeGreaterThanOrEqual(Math.floor((10 * 1000) / 91));
  });

  it('refuses a ceiling that is not a positive integer', () => {
    expect(() => new AdaptiveLimiter({ max: 0, clock: new ManualClock(0) })).toThrow();
    expect(() => new AdaptiveLimiter({ max: 1.5, clock: new ManualClock(0) })).toThrow();
  });
});
