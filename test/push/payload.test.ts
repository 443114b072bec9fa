import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePayload, payloadHash } from '../../src/push/payload.js';

// Payloads come out of the spec schemas, which only keep the DTO's members: never `__proto__`.
const json = fc.jsonValue({ maxDepth: 4 }).filter((v) => !JSON.stringify(v).includes('"__proto__"'));

function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, seed));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const rotated = entries
      .slice(seed % Math.max(entries.length, 1))
      .concat(entries.slice(0, seed % Math.max(entries.length, 1)))
      .reverse();
    return Object.fromEntries(rotated.map(([k, v]) => [k, shuffleKeys(v, seed + 1)]));
  }
  return value;
}

describe('payload normalization and hash', () => {
  it('the same payload in any key order hashes the same', () => {
    fc.assert(
      fc.property(json, fc.nat(10), (value, seed) => {
        expect(payloadHash(normalizePayload(shuffleKeys(value, seed)))).toBe(payloadHash(normalizePayload(value)));
      }),
    );
  });

  it('a null member and an absent one are the same payload; array order is not', () => {
    expect(payloadHash(normalizePayload({ externalCode: 'P', reference: null, lines: [{ a: 1, b: null }] }))).toBe(
      payloadHash(normalizePayload({ lines: [{ a: 1 }], externalCode: 'P' })),
    );
    expect(payloadHash(normalizePayload({ barcodes: [1, 2] }))).not.toBe(
      payloadHash(normalizePayload({ barcodes: [2, 1] })),
    );
  });

  it('normalizing twice changes nothing, and no null is left', () => {
    fc.assert(
      fc.property(json, (value) => {
        const once = normalizePayload(value);
        expect(normalizePayload(once)).toEqual(once);
        expect(JSON.stringify(once ?? '')).not.toMatch(/:null/);
      }),
    );
  });

  it('a changed value changes the hash', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        expect(payloadHash({ d: a })).not.toBe(payloadHash({ d: b }));
      }),
    );
  });
});
