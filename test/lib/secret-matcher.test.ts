import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeEqual, secretMatcher } from '../../src/lib/crypto.js';

describe('secretMatcher: which known secret a presented one is, compared in constant time', () => {
  it('answers the index of the first equal secret, -1 for none (any strings, any lengths)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 5 }), fc.string(), (known, presented) => {
        expect(secretMatcher(known)(presented)).toBe(known.indexOf(presented));
      }),
    );
  });

  it('finds a known secret presented, and agrees with safeEqual on pairs', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 5 }), fc.nat(), (known, n) => {
        const i = n % known.length;
        expect(secretMatcher(known)(known[i]!)).toBe(known.indexOf(known[i]!));
        expect(secretMatcher([known[0]!])(known[i]!) === 0).toBe(safeEqual(known[i]!, known[0]!));
      }),
    );
  });

  it('is not fooled by prefixes, case or surrounding space', () => {
    const match = secretMatcher(['Basic d21zOnNlY3JldA==']);
    for (const wrong of [
      'Basic d21zOnNlY3JldA',
      'basic d21zOnNlY3JldA==',
      ' Basic d21zOnNlY3JldA==',
      'Basic d21zOnNlY3JldA== ',
      '',
    ])
      expect(match(wrong)).toBe(-1);
    expect(match('Basic d21zOnNlY3JldA==')).toBe(0);
  });
});
