import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BackoffPolicy,
  backoffCapMs,
  backoffDelayMs,
  parseRetryAfter,
  retryWithBackoff,
  scheduleDelayMs,
} from '../../src/lib/backoff.js';

const policy = fc.record({
  baseMs: fc.integer({ min: 1, max: 60_000 }),
  maxMs: fc.integer({ min: 1, max: 24 * 3600_000 }),
  jitter: fc.constantFrom<NonNullable<BackoffPolicy['jitter']>>('full', 'equal', 'none'),
});
const random = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('backoff: exponential, capped, full jitter, Retry-After honoured', () => {
  it('the cap doubles per retry from base and never passes max', () => {
    const p = { baseMs: 1000, maxMs: 300_000 };
    expect([0, 1, 2, 3, 8, 9, 1000].map((r) => backoffCapMs(p, r))).toEqual([
      1000, 2000, 4000, 8000, 256_000, 300_000, 300_000,
    ]);
  });

  it('full jitter: every delay lies in [0, cap]; equal jitter in [cap/2, cap]; none is the cap', () => {
    fc.assert(
      fc.property(policy, fc.nat({ max: 100 }), random, (p, retry, r) => {
        const cap = backoffCapMs(p, retry);
        const d = backoffDelayMs(p, retry, { random: r });
        const low = p.jitter === 'full' ? 0 : p.jitter === 'equal' ? cap / 2 : cap;
        expect(d).toBeGreaterThanOrEqual(Math.floor(low));
        expect(d).toBeLessThanOrEqual(Math.ceil(cap));
      }),
    );
  });

  it('full jitter spreads: random 0 retries at once, random near 1 waits the cap', () => {
    const p = { baseMs: 1000, maxMs: 60_000 };
    expect(backoffDelayMs(p, 3, { random: 0 })).toBe(0);
    expect(backoffDelayMs(p, 3, { random: 0.999_999 })).toBe(8000);
  });

  it('never shorter than Retry-After, which is itself capped at max', () => {
    fc.assert(
      fc.property(
        policy,
        fc.nat({ max: 100 }),
        random,
        fc.nat({ max: 10 * 24 * 3600_000 }),
        (p, retry, r, retryAfterMs) => {
          const d = backoffDelayMs(p, retry, { random: r, retryAfterMs });
          expect(d).toBeGreaterThanOrEqual(Math.min(retryAfterMs, p.maxMs));
          expect(d).toBeLessThanOrEqual(Math.max(p.maxMs, Math.ceil(backoffCapMs(p, retry))));
        },
      ),
    );
  });

  it('a schedule gives its entries in order, then its last one', () => {
    const schedule = [0, 5000, 300_000];
    expect([0, 1, 2, 3, 10].map((r) => scheduleDelayMs(schedule, r, { jitter: 'none' }))).toEqual([
      0, 5000, 300_000, 300_000, 300_000,
    ]);
    expect(scheduleDelayMs(schedule, 1, { random: 0.5 })).toBe(2500);
    expect(scheduleDelayMs(schedule, 0, { retryAfterMs: 7000 })).toBe(7000);
    expect(() => scheduleDelayMs([], 0)).toThrow(/empty/);
  });

  it('Retry-After: delay-seconds or an HTTP-date (RFC 9110), in ms from now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('retryWithBackoff', () => {
  class Flaky extends Error {
    constructor(
      readonly retryable: boolean,
      readonly retryAfterMs?: number,
    ) {
      super(retryable ? 'try again' : 'no use');
    }
  }
  const options = {
    policy: { baseMs: 1, maxMs: 1000 },
    retryable: (err: unknown) => err instanceof Flaky && err.retryable,
    retryAfterMs: (err: unknown) => (err instanceof Flaky ? err.retryAfterMs : undefined),
  };

  it('calls again until a call succeeds, numbering the attempts', async () => {
    const seen: number[] = [];
    const result = await retryWithBackoff(
      async (attempt) => {
        seen.push(attempt);
        if (attempt < 3) throw new Flaky(true);
        return 'done';
      },
      { ...options, attempts: 5 },
    );
    expect(result).toBe('done');
    expect(seen).toEqual([1, 2, 3]);
  });

  it.each([
    ['throws the last error once the attempts are spent', true, 'try again', 3],
    ['throws an error it may not retry at once', false, 'no use', 1],
  ])('%s', async (_title, retryable, message, calls) => {
    let made = 0;
    const failing = retryWithBackoff(
      async () => {
        made += 1;
        throw new Flaky(retryable);
      },
      { ...options, attempts: 3 },
    );
    await expect(failing).rejects.toThrow(message);
    expect(made).toBe(calls);
  });

  it("waits at least the server's Retry-After before the next call", async () => {
    const at: number[] = [];
    await retryWithBackoff(
      async (attempt) => {
        at.push(performance.now());
        if (attempt === 1) throw new Flaky(true, 150);
      },
      { ...options, attempts: 2, random: () => 0 },
    );
    // A lower bound only: a busy machine makes the wait longer, never shorter.
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(145);
  });

  it('an abort ends the wait between calls', async () => {
    const controller = new AbortController();
    let calls = 0;
    const run = retryWithBackoff(
      async () => {
        calls += 1;
        queueMicrotask(() => controller.abort(new Error('stopped')));
        throw new Flaky(true, 60_000);
      },
      { ...options, policy: { baseMs: 60_000, maxMs: 60_000 }, attempts: 3, signal: controller.signal },
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toBe(1);
  });
});
