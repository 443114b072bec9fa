/**
 * The rules of the adaptive concurrency limit, as plain state and pure functions of the samples
 * and the time (AIMD in the style of TCP and Netflix's concurrency-limits):
 * - slow start: until the first sign of overload the limit grows by one per successful call
 *   (doubling every round trip), so a start at the default reaches a big WMS's capacity in a few
 *   round trips;
 * - then additive increase: one more per limit's worth of successes (one per round trip), and only
 *   while the limit is in use (an idle connection proves nothing);
 * - multiplicative decrease, at most once per round trip: halved on 429, 503 and timeouts, a tenth
 *   off when the recent latency reaches twice the no-load latency beyond the client's own
 *   event-loop lag (the WMS is queueing);
 * - after a 429 the rate's edge is remembered: the limit the 429 came at (half of it in slow start,
 *   as TCP's ssthresh), or lower when the recent delivery rate × the recent round trip says so
 *   (Little's law: a WMS that takes R calls/s answering in T s holds R × T in flight). Growth
 *   stops one below it for a while (`plateauMs`), then probes again one step at a time. A rate
 *   limit shows no latency, so without this memory the limit would probe into it every few round
 *   trips and pause each time;
 * - a Retry-After pauses the whole connection until then;
 * - never above `max` (WMS_MAX_CONCURRENCY) nor below `min`.
 * The state is JSON, so processes sharing one budget keep it in the database.
 */
export interface LimitRules {
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
  /** How long growth stays below the limit a 429 happened at. */
  plateauMs: number;
  /** The no-load latency is the least seen over the last one or two windows this long. */
  rttWindowMs: number;
  /** Longest pause a Retry-After may impose. */
  maxPauseMs: number;
}

export const DEFAULT_RULES: Omit<LimitRules, 'initial' | 'max'> = {
  min: 1,
  overloadRatio: 0.5,
  latencyRatio: 0.9,
  latencyTolerance: 2,
  latencySlackMs: 20,
  plateauMs: 30_000,
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
  /** After a 429: no growth to `limit` or above before `until`. */
  plateau: { limit: number; until: number } | null;
  /** When the last few successful calls ended (ms), for the delivery rate. */
  okTimes: number[];
}

/** Successful calls the delivery rate is measured over. */
const RATE_SAMPLES = 64;

export type Sample =
  /** `lagMs`: how late the client itself ran its callbacks lately (its CPU load, not the WMS's queue). */
  | { kind: 'ok'; rttMs: number; saturated: boolean; lagMs?: number | undefined }
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
    plateau: null,
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
  if (sample.kind === 'ok') return onSuccess(rules, s, sample.rttMs, sample.saturated, nowMs, sample.lagMs ?? 0);
  const before = s.limit;
  // The rate is measured on the calls since the last pause ended (the pause is not the WMS's rate).
  const edge = sample.kind === 'overload' && sample.status === 429 ? edgeOfRate(s) : undefined;
  const next = decrease(rules, s, rules.overloadRatio, nowMs);
  if (sample.kind === 'overload') {
    if (sample.retryAfterMs !== undefined && sample.retryAfterMs > 0) {
      next.pausedUntil = Math.max(next.pausedUntil, nowMs + Math.min(sample.retryAfterMs, rules.maxPauseMs));
    }
    if (sample.status === 429) {
      // Remember the lowest limit a 429 came at while the plateau lasts: that is the rate's edge.
      // In slow start the limit doubled each round trip: the one before the last doubling is the edge
      // (TCP's ssthresh = cwnd / 2); the burst the rate limiter allows hid it for a round trip or two.
      const seen = s.slowStart ? Math.ceil(before / 2) + 1 : Math.floor(before);
      const at = edge === undefined ? seen : Math.min(seen, edge + 1);
      const limit = next.plateau && next.plateau.until > nowMs ? Math.min(next.plateau.limit, at) : at;
      next.plateau = { limit: Math.max(rules.min + 1, limit), until: nowMs + rules.plateauMs };
    }
  }
  return next;
}

function onSuccess(rules: LimitRules, s: LimitState, rttMs: number, saturated: boolean, nowMs: number, lagMs: number): LimitState {
  const minRtt = { ...s.minRtt, current: s.minRtt.current === null ? rttMs : Math.min(s.minRtt.current, rttMs) };
  const okTimes = [...(s.okTimes ?? []).filter((t) => t >= s.pausedUntil), nowMs].slice(-RATE_SAMPLES);
  // About two round trips' worth of samples in the average: a busy client's own event-loop lag
  // comes and goes, a queueing WMS stays slow.
  const alpha = Math.min(0.25, Math.max(0.01, 1 / Math.max(1, 2 * s.limit)));
  const recentRtt = s.recentRtt === null ? rttMs : s.recentRtt + alpha * (rttMs - s.recentRtt);
  let next: LimitState = { ...s, minRtt, recentRtt, okTimes };
  const base = noLoadRtt(next);
  // A busy client sees every answer later by its own event-loop lag: that is not the WMS queueing.
  if (base !== null && recentRtt > base * rules.latencyTolerance + lagMs && recentRtt > base + rules.latencySlackMs + lagMs) {
    // Queueing at the WMS; the average restarts from the no-load latency so one decrease does not repeat on old samples.
    next = decrease(rules, next, rules.latencyRatio, nowMs);
    if (next.decreasedAt === nowMs) next.recentRtt = (base + recentRtt) / 2;
    return next;
  }
  if (!saturated) return next;
  const step = next.slowStart ? 1 : 1 / Math.max(1, next.limit);
  let limit = next.limit + step;
  const plateau = next.plateau;
  if (plateau) {
    if (plateau.until <= nowMs) {
      // Probe one step past the edge, then hold there for another plateau.
      next.plateau = { limit: plateau.limit + 1, until: nowMs + rules.plateauMs };
    }
    limit = Math.min(limit, (next.plateau ?? plateau).limit - 1e-9);
  }
  next.limit = clamp(rules, Math.max(next.limit, limit));
  return next;
}

function decrease(rules: LimitRules, s: LimitState, ratio: number, nowMs: number): LimitState {
  // Calls sent before the last decrease report the same overload: one decrease per round trip.
  const roundTrip = Math.max(s.recentRtt ?? 0, noLoadRtt(s) ?? 0);
  if (nowMs - s.decreasedAt < roundTrip) return { ...s, slowStart: false };
  return { ...s, limit: clamp(rules, Math.floor(s.limit * ratio)), slowStart: false, decreasedAt: nowMs };
}

/**
 * Calls in flight at the rate the WMS delivered lately (delivery rate × the recent round trip, by
 * Little's law: a busy client's longer round trips need more in flight for the same rate), rounded
 * up; undefined while too few calls, or too short a span, were seen since the last pause.
 */
function edgeOfRate(s: LimitState): number | undefined {
  const base = noLoadRtt(s);
  if (base === null) return undefined;
  // The first round trips after a pause spend the bucket's burst: faster than the rate itself.
  const times = (s.okTimes ?? []).filter((t) => t >= s.pausedUntil + 2 * base);
  if (times.length < 16) return undefined;
  const span = Math.max(...times) - Math.min(...times);
  if (span < base) return undefined;
  return Math.ceil(((times.length - 1) / span) * Math.max(base, s.recentRtt ?? base));
}

function rollWindow(rules: LimitRules, w: LimitState['minRtt'], nowMs: number): LimitState['minRtt'] {
  if (nowMs - w.since < rules.rttWindowMs) return w;
  return { current: null, previous: w.current ?? w.previous, since: nowMs };
}
