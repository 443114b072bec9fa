import { createHash, timingSafeEqual } from 'node:crypto';

export function sha256Hex(input: string | Buffer): string {
  return createHash('sha256').update(input).digest('hex');
}

/**
 * Constant-time string comparison. Both sides are hashed first so the comparison never leaks
 * the length of the expected value and `timingSafeEqual` always sees equal-length buffers.
 */
export function safeEqual(actual: string, expected: string): boolean {
  return timingSafeEqual(digest(actual), digest(expected));
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Which of the known secrets a presented one is (its index, or -1), in constant time like
 * `safeEqual`, every candidate compared (no early exit). The known secrets are hashed once here,
 * not on every request: the webhook receiver checks each delivery this way.
 */
export function secretMatcher(expected: readonly string[]): (actual: string) => number {
  const known = expected.map(digest);
  return (actual) => {
    const presented = digest(actual);
    let found = -1;
    known.forEach((candidate, i) => {
      if (timingSafeEqual(presented, candidate) && found < 0) found = i;
    });
    return found;
  };
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
