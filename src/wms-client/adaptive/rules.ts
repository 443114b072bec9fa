import { DEFAULT_PACE_RULES, deliveryRate, onDelivered, onRateLimited, type Pace, type PaceRules } from './pace.js';

/**
 * The rules of the adaptive concurrency limit, as plain state and pure functions of the samples
 * and the time (AIMD in the style of TCP and Netflix's concurrency-limits):
 * - slow start: until the first sign of overload the limit grows by one per successful call
 *   (doubling every round trip), so a start at the default reaches a big WMS's capacity in a few
 *   round trips;
 * - then additive increase: one more per limit's worth of successes (one per round trip), and only
 *   while the limit is in use (an idle connection proves nothing);
 * - multiplicative decrease, at most once per round trip: halved on 503 and timeouts, a tenth off
 *   when the recent latency reaches twice the no-load latency beyond the client's own event-loop
 *   lag (the WMS is queueing);
 * - a 429 is a rate limit, answered by a rate (adaptive/pace.ts): calls start no faster than just
 *   under what the WMS let through, and that pace probes upwards while it holds calls back. The
 *   concurrency limit stays (it leaves slow start). Only when no rate is known yet (too few
 *   successes) does a 429 halve the limit instead;
 * - a Retry-After pauses the whole connection until then, except a 429's of at most
 *   `shortRetryAfterMs` once the connection paces: the header counts whole seconds, so 1 s says
 *   "under a second", and a token bucket lets the next call through a few ms later. There the
 *   refused call waits its Retry-After (its job is retried after it) and the others carry on at
 *   the lowered pace, instead of the connection losing a second of the WMS's rate per 429;
 * - never above `max` (WMS_MAX_CONCURRENCY) nor below `min`.
 * The state is JSON, so processes sharing one budget keep it in the database.
 */
export interface LimitRules extends PaceRules {
  initial: number;
  min: number;
  max: number;
  /** Factor on 429, 503 and timeouts. */
  overloadRatio: number;
  /** Factor when the latency rises. */
  latencyRatio: number;
  /** The recent latency over the no-load latency that counts as queueing… */
  latencyTolerance: number;
  /** …once it is also this many ms above it (noise in a fast WMS's answers is not queueing). */
  latencySlackMs: number;
  /** A 429's Retry-After up to this long does not pause a connection that paces (see above). */
  shortRetryAfterMs: number;
  /** The no-load latency is the least seen over the last one or two windows this long. */
  rttWindowMs: number;
  /** Longest pause a Retry-After may impose. */
  maxPauseMs: number;
}

export const DEFAULT_RULES: Omit<LimitRules, 'initial' | 'max'> = {
  ...DEFAULT_PACE_RULES,
  min: 1,
  overloadRatio: 0.5,
  latencyRatio: 0.9,
  latencyTolerance: 2,
  latencySlackMs: 20,
  shortRetryAfterMs: 1000,
  rttWindowMs: 30_000,
  maxPauseMs: 60_000,
};

export interface LimitState {
  limit: number;
  slowStart: boolean;
  /** Least round trip in the current and the previous window (ms), and when the current began. */
  minRtt: { current: number | null; previous: number | null; since: number };
  /** Moving average of recent round trips (ms). */
  recentRtt: number | null;
  /** When the limit last went down: one decrease per round trip. */
  decreasedAt: number;
  /** No call starts before this time (Retry-After). */
  pausedUntil: number;
  /** The rate calls start at, once a 429 taught it (null before; absent in states stored before it). */
  pace?: Pace | null;
  /** When the last few successful calls ended (ms), for the delivery rate. */
  okTimes: number[];
}

/** Successful calls the delivery rate is measured over. */
const RATE_SAMPLES = 64;

export type Sample =
  /**
   * `lagMs`: how late the client itself ran its callbacks lately (its CPU load, not the WMS's queue);
   * `paced`: calls were waiting on the pace (not on the concurrency limit) when it ended.
   */
  | { kind: 'ok'; rttMs: number; saturated: boolean; lagMs?: number | undefined; paced?: boolean | undefined }
  /** 429 or 503: the WMS says it is overloaded. */
  | { kind: 'overload'; status: number; retryAfterMs?: number | undefined }
  | { kind: 'timeout' };

export function initialState(rules: LimitRules, nowMs: number): LimitState {
  return {
    limit: clamp(rules, rules.initial),
    slowStart: true,
    minRtt: { current: null, previous: null, since: nowMs },
    recentRtt: null,
    decreasedAt: -Infinity,
    pausedUntil: 0,
    pace: null,
    okTimes: [],
  };
}

function clamp(rules: LimitRules, limit: number): number {
  return Math.min(rules.max, Math.max(rules.min, limit));
}

/** The no-load latency: the least round trip seen lately (ms), or null before any. */
export function noLoadRtt(state: LimitState): number | null {
  const { current, previous } = state.minRtt;
  if (current === null) return previous;
  return previous === null ? current : Math.min(current, previous);
}

/** Whole calls allowed in flight now. */
export function permits(state: LimitState): number {
  return Math.max(1, Math.floor(state.limit));
}

export function isPaused(state: LimitState, nowMs: number): boolean {
  return nowMs < state.pausedUntil;
}

/** The state after one finished call. */
export function onSample(rules: LimitRules, state: LimitState, sample: Sample, nowMs: number): LimitState {
  const s: LimitState = { ...state, minRtt: rollWindow(rules, state.minRtt, nowMs) };
  if (sample.kind === 'ok') return onSuccess(rules, s, sample, nowMs);
  if (sample.kind === 'overload' && sample.status === 429) {
    const paced = onRateLimited(rules, s.pace ?? null, deliveryRate(rules, s.okTimes ?? []), roundTrip(s), nowMs);
    if (paced) {
      const next: LimitState = { ...s, slowStart: false, pace: paced };
      if (sample.retryAfterMs !== undefined && sample.retryAfterMs > rules.shortRetryAfterMs)
        pause(rules, next, sample.retryAfterMs, nowMs);
      return next;
    }
  }
  const next = decrease(rules, s, rules.overloadRatio, nowMs);
  if (sample.kind === 'overload' && sample.retryAfterMs !== undefined && sample.retryAfterMs > 0)
    pause(rules, next, sample.retryAfterMs, nowMs);
  return next;
}

function pause(rules: LimitRules, s: LimitState, retryAfterMs: number, nowMs: number): void {
  s.pausedUntil = Math.max(s.pausedUntil, nowMs + Math.min(retryAfterMs, rules.maxPauseMs));
}

/** A round trip as the limiter sees it lately (ms): one decrease per round trip. */
function roundTrip(s: LimitState): number {
  return Math.max(s.recentRtt ?? 0, noLoadRtt(s) ?? 0);
}

function onSuccess(
  rules: LimitRules,
  s: LimitState,
  sample: Extract<Sample, { kind: 'ok' }>,
  nowMs: number,
): LimitState {
  const { rttMs, saturated } = sample;
  const lagMs = sample.lagMs ?? 0;
  const minRtt = { ...s.minRtt, current: s.minRtt.current === null ? rttMs : Math.min(s.minRtt.current, rttMs) };
  // In time order: processes sharing the state hand their samples over at different moments.
  const okTimes = [...(s.okTimes ?? []).filter((t) => t >= s.pausedUntil), nowMs]
    .sort((a, b) => a - b)
    .slice(-RATE_SAMPLES);
  // About two round trips' worth of samples in the average: a busy client's own event-loop lag
  // comes and goes, a queueing WMS stays slow.
  const alpha = Math.min(0.25, Math.max(0.01, 1 / Math.max(1, 2 * s.limit)));
  const recentRtt = s.recentRtt === null ? rttMs : s.recentRtt + alpha * (rttMs - s.recentRtt);
  let next: LimitState = { ...s, minRtt, recentRtt, okTimes };
  if (s.pace) next.pace = onDelivered(rules, s.pace, sample.paced === true, nowMs);
  const base = noLoadRtt(next);
  // A busy client sees every answer later by its own event-loop lag: that is not the WMS queueing.
  if (
    base !== null &&
    recentRtt > base * rules.latencyTolerance + lagMs &&
    recentRtt > base + rules.latencySlackMs + lagMs
  ) {
    // Queueing at the WMS; the average restarts from the no-load latency so one decrease does not repeat on old samples.
    next = decrease(rules, next, rules.latencyRatio, nowMs);
    if (next.decreasedAt === nowMs) next.recentRtt = (base + recentRtt) / 2;
    return next;
  }
  if (!saturated) return next;
  const step = next.slowStart ? 1 : 1 / Math.max(1, next.limit);
  next.limit = clamp(rules, next.limit + step);
  return next;
}

function decrease(rules: LimitRules, s: LimitState, ratio: number, nowMs: number): LimitState {
  // Calls sent before the last decrease report the same overload: one decrease per round trip.
  if (nowMs - s.decreasedAt < roundTrip(s)) return { ...s, slowStart: false };
  return { ...s, limit: clamp(rules, Math.floor(s.limit * ratio)), slowStart: false, decreasedAt: nowMs };
}

function rollWindow(rules: LimitRules, w: LimitState['minRtt'], nowMs: number): LimitState['minRtt'] {
  if (nowMs - w.since < rules.rttWindowMs) return w;
  return { current: null, previous: w.current ?? w.previous, since: nowMs };
}
