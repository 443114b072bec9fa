import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compare, figuresOf, pairKey, round6, type StockFigure } from '../../src/reconcile/compare.js';
import type { ExpectedFigure } from '../../src/store/index.js';

const product = fc.constantFrom('A', 'B', 'C');
const lot = fc.constantFrom('', 'L1', 'L2');
const qty = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 1000);

const figureArb = fc.uniqueArray(
  fc.record({ product, lot, existence: qty, available: fc.option(qty, { nil: null }) }),
  { selector: (f) => pairKey(f.product, f.lot), maxLength: 9 },
);
const expectedArb = fc.uniqueArray(
  fc.record({
    productExternalCode: product,
    lotCode: lot,
    baseline: fc.option(qty, { nil: null }),
    baselineAsOf: fc.constant(null),
    movements: qty,
    movementCount: fc.nat(5),
  }),
  { selector: (f) => pairKey(f.productExternalCode, f.lotCode), maxLength: 9 },
);

describe('compare', () => {
  it('compares every pair either side knows, once, with delta = WMS − (baseline + movements) (property)', () => {
    fc.assert(
      fc.property(figureArb, expectedArb, (figures: StockFigure[], expected: ExpectedFigure[]) => {
        const out = compare(figures, expected);
        const keys = new Set([
          ...figures.map((f) => pairKey(f.product, f.lot)),
          ...expected.map((e) => pairKey(e.productExternalCode, e.lotCode)),
        ]);
        expect(new Set(out.map((c) => pairKey(c.productExternalCode, c.lotCode)))).toEqual(keys);
        expect(out).toHaveLength(keys.size);
        for (const c of out) {
          const wms = figures.find((f) => f.product === c.productExternalCode && f.lot === c.lotCode)?.existence ?? 0;
          const e = expected.find((x) => x.productExternalCode === c.productExternalCode && x.lotCode === c.lotCode);
          expect(c.delta).toBeCloseTo(wms - ((e?.baseline ?? 0) + (e?.movements ?? 0)), 6);
          expect(Object.is(c.delta, -0)).toBe(false);
        }
        const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        expect(total(out.map((c) => c.delta))).toBeCloseTo(
          total(figures.map((f) => f.existence)) - total(expected.map((e) => (e.baseline ?? 0) + e.movements)),
          4,
        );
      }),
    );
  });

  it('with `only`, compares exactly those pairs, as 0 where neither side lists them', () => {
    fc.assert(
      fc.property(
        figureArb,
        expectedArb,
        fc.uniqueArray(fc.tuple(product, lot), { maxLength: 5 }),
        (figures, expected, pairs) => {
          const only = new Set(pairs.map(([p, l]) => pairKey(p, l)));
          const out = compare(figures, expected, only);
          expect(new Set(out.map((c) => pairKey(c.productExternalCode, c.lotCode)))).toEqual(only);
        },
      ),
    );
    expect(compare([], [], new Set([pairKey('Z', 'L')]))).toEqual([
      {
        productExternalCode: 'Z',
        lotCode: 'L',
        wms: { existence: 0, available: 0 },
        expected: { existence: 0, baseline: null, baselineAsOf: null, movements: 0, movementCount: 0 },
        delta: 0,
      },
    ]);
  });

  it('float sums are compared at the WMS’s 6 decimals: no drift out of rounding noise', () => {
    const [c] = compare(
      [{ product: 'A', lot: '', existence: 0.3, available: 0.3 }],
      [
        {
          productExternalCode: 'A',
          lotCode: '',
          baseline: 0.1,
          baselineAsOf: new Date(0),
          movements: 0.1 + 0.1,
          movementCount: 2,
        },
      ],
    );
    expect(c!.delta).toBe(0);
    expect(round6(1e-7)).toBe(0);
    expect(round6(-1e-9)).toBe(0);
    expect(Object.is(round6(-1e-9), -0)).toBe(false);
    expect(round6(2.0000004)).toBe(2);
  });
});

describe('figuresOf (endpoint-7 rows)', () => {
  it('normalises rows: no lot is "", existence from bulk + containers when absent, repeated pairs summed, other products dropped', () => {
    expect(
      figuresOf(
        ['A', 'B'],
        [
          { product: 'A', existence: 5, available: 4 },
          { product: 'B', lot: 'L1', bulk: 2, containers: 3 },
          { product: 'B', lot: 'L1', existence: 1, available: 1 },
          { product: 'X', existence: 9 },
          { existence: 7 },
        ],
      ),
    ).toEqual([
      { product: 'A', lot: '', existence: 5, available: 4 },
      { product: 'B', lot: 'L1', existence: 6, available: null },
    ]);
  });

  it('a row without product belongs to the product of a one-product request', () => {
    expect(figuresOf(['A'], [{ lot: 'L', existence: 2, available: 2 }])).toEqual([
      { product: 'A', lot: 'L', existence: 2, available: 2 },
    ]);
  });
});
