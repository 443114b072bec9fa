import { createHash, timingSafeEqual } from 'node:crypto';

export function sha256Hex(input: string | Buffer): string {
  return createHash('sha256').update(input).digest('hex');
}

/**
 * Constant-time string comparison. Both sides are hashed first so the comparison never leaks
 * the length of the expected value and `timingSafeEqual` always sees equal-length buffers.
 */
export function safeEqual(actual: string, expected: string): boolean {
  const a = createHash('sha256').update(actual).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** True when `actual` equals any of `expected`, checking every candidate (no early exit). */
export function safeEqualAny(actual: string, expected: readonly string[]): boolean {
  let match = false;
  for (const candidate of expected) match = safeEqual(actual, candidate) || match;
  return match;
}

/** JSON with object keys sorted at every depth, so equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function hashCanonical(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
