import { parseRetryAfter, scheduleDelayMs } from '../../lib/backoff.js';
import type { DeliveryAttemptOutcome } from '../../store/values.js';

/** What the ERP's endpoint did with one POST: an HTTP status, or no answer at all. */
export type PostOutcome =
  | { kind: 'answered'; status: number; retryAfter: string | null; response: string | null; latencyMs: number }
  | { kind: 'no-answer'; timeout: boolean; error: string; latencyMs: number };

/** 4xx answers that another attempt may change (Standard Webhooks' and Svix's list). */
const RETRYABLE_4XX = new Set([408, 409, 425, 429]);

export interface Verdict {
  outcome: DeliveryAttemptOutcome;
  nextAttemptAt?: Date;
  error: string | null;
  /** Whether the endpoint counts as failing, for its circuit breaker (an answered 4xx does not). */
  endpointFailed: boolean;
}

/**
 * The rule of one attempt: 2xx ends it; other 4xx fail it at once except 408, 409, 425, 429;
 * 5xx, timeouts and refused connections retry along the schedule (full jitter), never sooner
 * than a Retry-After sent with a 429 or 503; after the schedule's last attempt it is dead.
 * `attempts` counts this attempt.
 */
export function classify(
  post: PostOutcome,
  attempts: number,
  scheduleMs: readonly number[],
  now: Date,
  random = Math.random(),
): Verdict {
  if (post.kind === 'answered' && post.status >= 200 && post.status < 300)
    return { outcome: 'delivered', error: null, endpointFailed: false };
  const error = post.kind === 'answered' ? `HTTP ${post.status}` : post.timeout ? `timeout: ${post.error}` : post.error;
  if (post.kind === 'answered' && post.status >= 400 && post.status < 500 && !RETRYABLE_4XX.has(post.status)) {
    return { outcome: 'dead', error, endpointFailed: false };
  }
  const endpointFailed = post.kind === 'no-answer' || post.status >= 500 || post.status === 429 || post.status === 408;
  if (attempts >= scheduleMs.length) return { outcome: 'dead', error, endpointFailed };
  const retryAfterMs =
    post.kind === 'answered' && (post.status === 429 || post.status === 503)
      ? parseRetryAfter(post.retryAfter, now.getTime())
      : undefined;
  const delay = scheduleDelayMs(scheduleMs, attempts, { retryAfterMs, random });
  return { outcome: 'retry', nextAttemptAt: new Date(now.getTime() + delay), error, endpointFailed };
}
