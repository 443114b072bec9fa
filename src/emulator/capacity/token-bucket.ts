/**
 * A token bucket: `ratePerSecond` tokens flow in, at most `burst` are kept. A request takes one
 * token or is refused with the time until one is there. Plain state and functions of the time, so
 * tests move a fake clock instead of waiting.
 */
export interface TokenBucket {
  ratePerSecond: number;
  burst: number;
  tokens: number;
  atMs: number;
}

export function newBucket(ratePerSecond: number, burst: number, nowMs: number): TokenBucket {
  return { ratePerSecond, burst, tokens: burst, atMs: nowMs };
}

function refill(bucket: TokenBucket, nowMs: number): void {
  const elapsed = Math.max(0, nowMs - bucket.atMs);
  bucket.tokens = Math.min(bucket.burst, bucket.tokens + (elapsed * bucket.ratePerSecond) / 1000);
  bucket.atMs = Math.max(bucket.atMs, nowMs);
}

/** Takes a token: `{ ok: true }`, or `{ ok: false, waitMs }` until the next whole token. */
export function take(bucket: TokenBucket, nowMs: number): { ok: true } | { ok: false; waitMs: number } {
  refill(bucket, nowMs);
  // Float sums of tiny refills fall short of a whole token by rounding only.
  if (bucket.tokens >= 1 - 1e-9) {
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    return { ok: true };
  }
  return { ok: false, waitMs: Math.ceil(((1 - bucket.tokens) * 1000) / bucket.ratePerSecond) };
}
