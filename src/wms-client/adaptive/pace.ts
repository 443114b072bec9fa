/**
 * The rate a connection's calls start at, learned from the WMS's 429s (a rate limit is a rate
 * problem, not a concurrency one: a limiter that answers it by halving the calls in flight ends up
 * wherever its round trip puts it, and one that stops for the whole Retry-After loses a second of
 * the rate each time). Pure functions of the state and the time, in the style of TCP's AIMD on a
 * rate (as TFRC and BBR pace):
 * - none until the first 429: until then only the concurrency limit holds calls back;
 * - on a 429, the rate becomes a fraction (`rateDecrease`) of the lower of the current rate and the
 *   rate the WMS delivered lately (successful calls per second over the last `RATE_SAMPLES`). When
 *   the WMS refuses, what it lets through is its rate (plus what was left of its burst): so a few
 *   429s bring the pace just under it. At most one decrease per round trip (the calls sent before
 *   it report the same excess);
 * - while calls wait on the pace (it is what holds them back), it grows by `rateGrowth` of itself
 *   per second, probing for a higher rate (the WMS may allow more, or another client's share may
 *   have gone); the next 429 takes it back down. No growth while the pace is not what binds.
 */
export interface PaceRules {
  /** Factor on the rate at a 429 (0.9: a tenth under what the WMS let through). */
  rateDecrease: number;
  /** Growth per second, as a fraction of the rate, while calls wait on it. */
  rateGrowth: number;
  /** Successful calls the delivery rate needs before a 429 can set a pace from it. */
  rateMinSamples: number;
}

export const DEFAULT_PACE_RULES: PaceRules = { rateDecrease: 0.9, rateGrowth: 0.05, rateMinSamples: 8 };

export interface Pace {
  /** Calls per second the connection (all its processes together) starts at most. */
  perSecond: number;
  /** When it was last lowered: one decrease per round trip. */
  loweredAt: number;
  /** When it last grew (or was set): growth is by the time since. */
  grewAt: number;
}

/**
 * Successful calls per second over the given end times (ms), or undefined when too few or too
 * close together to say. The times may come from several processes, so not in order.
 */
export function deliveryRate(rules: PaceRules, okTimes: readonly number[]): number | undefined {
  if (okTimes.length < Math.max(2, rules.rateMinSamples)) return undefined;
  let first = Infinity;
  let last = -Infinity;
  for (const t of okTimes) {
    first = Math.min(first, t);
    last = Math.max(last, t);
  }
  if (last - first <= 0) return undefined;
  return ((okTimes.length - 1) * 1000) / (last - first);
}

/**
 * The pace after a 429 at `nowMs`; undefined when no pace can be set (too few successes seen to
 * know a rate): the caller then falls back on the concurrency limit and the Retry-After.
 */
export function onRateLimited(
  rules: PaceRules,
  pace: Pace | null,
  delivered: number | undefined,
  roundTripMs: number,
  nowMs: number,
): Pace | undefined {
  if (pace && nowMs - pace.loweredAt < roundTripMs) return pace;
  const base = Math.min(pace?.perSecond ?? Infinity, delivered ?? Infinity);
  if (!Number.isFinite(base)) return undefined;
  return { perSecond: Math.max(minRate, base * rules.rateDecrease), loweredAt: nowMs, grewAt: nowMs };
}

/** The pace after a successful call at `nowMs`; `waiting`: calls were waiting on the pace. */
export function onDelivered(rules: PaceRules, pace: Pace, waiting: boolean, nowMs: number): Pace {
  // Samples from several processes arrive out of order: time only moves forward here.
  if (nowMs <= pace.grewAt) return pace;
  if (!waiting) return { ...pace, grewAt: nowMs };
  const perSecond = pace.perSecond * (1 + (rules.rateGrowth * (nowMs - pace.grewAt)) / 1000);
  return { ...pace, perSecond, grewAt: nowMs };
}

/** The least pace: one call every ten seconds still finds out whether the WMS is back. */
const minRate = 0.1;
