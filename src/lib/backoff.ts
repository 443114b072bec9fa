import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The one retry-delay rule of wms-sync: exponential, capped, with full jitter ("Exponential
 * Backoff and Jitter", AWS Architecture Blog), never shorter than a server's Retry-After. Every
 * room that waits before trying again (the embedded queue's retries, push jobs, reconciliation's
 * stock requests, ERP deliveries) takes its delays from here, so the rule lives in one place.
 */

export interface BackoffPolicy {
  /** Delay cap before the first retry, in ms. */
  baseMs: number;
  /** Largest delay, in ms; a Retry-After is capped here too, so a wrong header cannot park work for days. */
  maxMs: number;
  /** Growth per retry; 2 by default. */
  factor?: number;
  /**
   * `full`: a random point in [0, cap] (spreads retries best); `equal`: in [cap/2, cap] (never
   * retries at once); `none`: exactly the cap.
   */
  jitter?: 'full' | 'equal' | 'none';
}

export interface DelayOptions {
  /** The server's Retry-After in ms, when it sent one. */
  retryAfterMs?: number | undefined;
  /** A number in [0, 1); tests pass a fixed one. */
  random?: number;
}

/** The cap before jitter of the delay that follows `retry` earlier retries (0 before the first retry). */
export function backoffCapMs(policy: BackoffPolicy, retry: number): number {
  const factor = policy.factor ?? 2;
  return Math.min(policy.maxMs, policy.baseMs * factor ** Math.min(Math.max(0, retry), 64));
}

/** Delay before the next attempt, after `retry` earlier retries. */
export function backoffDelayMs(policy: BackoffPolicy, retry: number, options: DelayOptions = {}): number {
  return withRetryAfter(
    jittered(backoffCapMs(policy, retry), policy.jitter ?? 'full', options.random),
    policy.maxMs,
    options.retryAfterMs,
  );
}

/**
 * Delay from an explicit schedule (e.g. immediately, 5 s, 5 min, 30 min…): entry `retry`, or the
 * last one past its end, with the same jitter and Retry-After rules.
 */
export function scheduleDelayMs(
  scheduleMs: readonly number[],
  retry: number,
  options: DelayOptions & { jitter?: BackoffPolicy['jitter']; maxMs?: number } = {},
): number {
  if (scheduleMs.length === 0) throw new Error('scheduleDelayMs: empty schedule');
  const cap = scheduleMs[Math.min(Math.max(0, retry), scheduleMs.length - 1)]!;
  const maxMs = options.maxMs ?? Math.max(...scheduleMs);
  return withRetryAfter(jittered(cap, options.jitter ?? 'full', options.random), maxMs, options.retryAfterMs);
}

function jittered(cap: number, jitter: NonNullable<BackoffPolicy['jitter']>, random = Math.random()): number {
  if (jitter === 'none') return cap;
  if (jitter === 'equal') return cap / 2 + (cap / 2) * random;
  return cap * random;
}

function withRetryAfter(delay: number, maxMs: number, retryAfterMs: number | undefined): number {
  const honoured =
    retryAfterMs === undefined || !Number.isFinite(retryAfterMs) ? 0 : Math.min(Math.max(0, retryAfterMs), maxMs);
  return Math.round(Math.max(delay, honoured));
}

/**
 * A `Retry-After` header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) in ms from `nowMs`;
 * undefined when absent or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its day and month; without letters Date.parse reads '-5' as the year -5.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

export interface RetryOptions {
  /** Calls in all, the first included. */
  attempts: number;
  policy: BackoffPolicy;
  /** Whether another call may help; an error it refuses is thrown at once. */
  retryable(err: unknown): boolean;
  /** The server's Retry-After carried by an error, in ms, when it has one. */
  retryAfterMs?(err: unknown): number | undefined;
  /** Ends a wait between calls: the call rejects with an AbortError. */
  signal?: AbortSignal | undefined;
  /** A number in [0, 1); tests pass a fixed one. */
  random?(): number;
}

/**
 * Calls `fn` until it resolves, throws an error `retryable` refuses, or `attempts` calls were made
 * (the last error is thrown), waiting `backoffDelayMs` between calls. For retries made in-process,
 * inside one job; retries that outlive a process are the queue's.
 */
export async function retryWithBackoff<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= options.attempts || !options.retryable(err)) throw err;
      const delayMs = backoffDelayMs(options.policy, attempt - 1, {
        retryAfterMs: options.retryAfterMs?.(err),
        random: (options.random ?? Math.random)(),
      });
      await sleep(delayMs, undefined, options.signal ? { signal: options.signal } : {});
    }
  }
}
