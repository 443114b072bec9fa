import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Limiter } from '../../src/wms-client/index.js';

describe('Limiter', () => {
  it('never runs more than max at once, runs everything, in arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 60 }), async (max, ticks) => {
        const limiter = new Limiter(max);
        let running = 0;
        let peak = 0;
        const started: number[] = [];
        await Promise.all(
          ticks.map((t, i) =>
            limiter.run(async () => {
              started.push(i);
              running += 1;
              peak = Math.max(peak, running);
              for (let k = 0; k < t; k++) await Promise.resolve();
              running -= 1;
            }),
          ),
        );
        expect(peak).toBeLessThanOrEqual(max);
        expect(started).toEqual(ticks.map((_, i) => i));
        expect(limiter.active).toBe(0);
      }),
    );
  });

  it('frees the slot when the call throws', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });

  it('refuses a max that is not a positive integer', () => {
    expect(() => new Limiter(0)).toThrow();
    expect(() => new Limiter(1.5)).toThrow();
  });
});
