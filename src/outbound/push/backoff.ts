export interface BackoffInput {
  /** Retries already made (0 before the first retry). */
  retry: number;
  baseMs: number;
  maxMs: number;
  /** The WMS's Retry-After, when it sent one. */
  retryAfterMs?: number | undefined;
  /** A number in [0, 1). */
  random: number;
}

/**
 * Delay before the next attempt: exponential (base × 2^retry, capped at max) with equal jitter
 * (a random point in the upper half), never shorter than the WMS's Retry-After, itself capped at
 * max so a wrong header cannot park a record for days.
 */
export function retryDelayMs(input: BackoffInput): number {
  const exponential = Math.min(input.maxMs, input.baseMs * 2 ** Math.min(input.retry, 40));
  const jittered = exponential / 2 + (exponential / 2) * input.random;
  const honoured = input.retryAfterMs === undefined ? 0 : Math.min(input.retryAfterMs, input.maxMs);
  return Math.round(Math.max(jittered, honoured));
}
