import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthFailureLimiter } from '../../src/lib/auth-failures.js';
import { ManualClock } from '../../src/lib/clock.js';

/** The limiter's rules, on the injected clock (no wall time anywhere). */
describe('AuthFailureLimiter', () => {
  const limits = { limit: 5, windowMs: 60_000 };

  it('lets `limit` failures through, then answers with the seconds until one more would be within the limit', () => {
    const clock = new ManualClock(0);
    const limiter = new AuthFailureLimiter(limits, clock);
    for (let i = 0; i < 5; i++) expect(limiter.fail('10.0.0.1')).toBeUndefined();
    // one failure drains every 12 s (5 per minute): 6 in the bucket, 2 must drain
    expect(limiter.fail('10.0.0.1')).toBe(24);
    clock.advance(24_000);
    expect(limiter.fail('10.0.0.1')).toBeUndefined();
    expect(limiter.fail('10.0.0.1')).toBe(24);
  });

  it('drains with time: after a quiet window the whole budget is back', () => {
    const clock = new ManualClock(0);
    const limiter = new AuthFailureLimiter(limits, clock);
    for (let i = 0; i < 7; i++) limiter.fail('a');
    clock.advance(120_000);
    for (let i = 0; i < 5; i++) expect(limiter.fail('a')).toBeUndefined();
  });

  it('addresses are independent', () => {
    const limiter = new AuthFailureLimiter(limits, new ManualClock(0));
    for (let i = 0; i < 6; i++) limiter.fail('guesser');
    expect(limiter.fail('guesser')).toBeGreaterThan(0);
    expect(limiter.fail('someone-else')).toBeUndefined();
  });

  it('a persistent guesser waits at most a window and one drain once it stops (the level is capped)', () => {
    const clock = new ManualClock(0);
    const limiter = new AuthFailureLimiter(limits, clock);
    let wait = 0;
    for (let i = 0; i < 10_000; i++) wait = limiter.fail('g') ?? 0;
    expect(wait).toBe(72);
    clock.advance(71_000);
    expect(limiter.fail('g')).toBeGreaterThan(0);
    clock.advance(72_000);
    expect(limiter.fail('g')).toBeUndefined();
  });

  it('limit 0 turns it off', () => {
    const limiter = new AuthFailureLimiter({ limit: 0, windowMs: 60_000 }, new ManualClock(0));
    for (let i = 0; i < 1000; i++) expect(limiter.fail('x')).toBeUndefined();
  });

  it('memory is bounded: the least recently failing addresses are forgotten first', () => {
    const limiter = new AuthFailureLimiter({ ...limits, maxClients: 100 }, new ManualClock(0));
    for (let i = 0; i < 6; i++) limiter.fail('kept');
    for (let i = 0; i < 1000; i++) limiter.fail(`spray-${i}`);
    expect(limiter.tracked).toBe(100);
    for (let i = 0; i < 6; i++) limiter.fail('kept-2');
    expect(limiter.fail('kept-2')).toBeGreaterThan(0);
  });

  it('property: within any window an address gets at most `limit` failures answered without a wait', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30_000 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 20 }),
        (gaps, limit) => {
          const clock = new ManualClock(0);
          const limiter = new AuthFailureLimiter({ limit, windowMs: 60_000 }, clock);
          const free: number[] = [];
          for (const gap of gaps) {
            clock.advance(gap);
            if (limiter.fail('x') === undefined) free.push(clock.nowMs());
          }
          // a leaky bucket lets at most limit + (elapsed × rate) through in any interval
          for (let i = 0; i < free.length; i++) {
            const inWindow = free.filter((t) => t >= free[i]! && t < free[i]! + 60_000).length;
            expect(inWindow).toBeLessThanOrEqual(2 * limit);
          }
        },
      ),
    );
  });
});
