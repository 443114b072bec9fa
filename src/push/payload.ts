import { hashCanonical } from '../lib/crypto.js';

/**
 * The form a payload is stored, hashed and pushed in: members that are null or absent are dropped
 * (the WMS, a Jackson service, reads both the same way), so `{"reference": null}` and `{}` are one
 * payload and sending either after the other is no change.
 */
export function normalizePayload<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => normalizePayload(v)) as T;
  if (value !== null && typeof value === 'object') {
    const kept = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined);
    return Object.fromEntries(kept.map(([k, v]) => [k, normalizePayload(v)])) as T;
  }
  return value;
}

/** Hash of the normalized payload, key order ignored: equal payloads hash the same. */
export function payloadHash(normalized: unknown): string {
  return hashCanonical(normalized);
}
