import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type QuantityLine, receptionDifferences } from '../../src/inbound/differences.js';

const line = (productExternalCode: string, quantity: number, lotCode: string | null = null): QuantityLine => ({
  productExternalCode,
  quantity,
  lotCode,
});
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('reception differences against the ordered lines', () => {
  it('received as ordered (in another line order, split over lines) → no differences', () => {
    const ordered = [line('A', 10), line('B', 5, 'L1')];
    const received = [line('B', 2, 'L1'), line('A', 4), line('B', 3, 'L1'), line('A', 6)];
    expect(receptionDifferences(ordered, received)).toEqual({ hasDifferences: false, lines: [], unknownProducts: [] });
  });

  it('more than ordered is a surplus, less a shortage, nothing received a full shortage', () => {
    const result = receptionDifferences([line('A', 10), line('B', 5), line('C', 3)], [line('A', 12), line('B', 4.5)]);
    expect(result.lines).toEqual([
      { productExternalCode: 'A', lotCode: null, ordered: 10, received: 12, difference: 2, kind: 'surplus' },
      { productExternalCode: 'B', lotCode: null, ordered: 5, received: 4.5, difference: -0.5, kind: 'shortage' },
      { productExternalCode: 'C', lotCode: null, ordered: 3, received: 0, difference: -3, kind: 'shortage' },
    ]);
  });

  it('an ordered lot is compared with that lot; an order without lot takes every lot no line names', () => {
    const ordered = [line('A', 10, 'L1'), line('A', 5)];
    const received = [line('A', 8, 'L1'), line('A', 3, 'L2'), line('A', 4, 'L3')];
    expect(receptionDifferences(ordered, received).lines).toEqual([
      { productExternalCode: 'A', lotCode: null, ordered: 5, received: 7, difference: 2, kind: 'surplus' },
      { productExternalCode: 'A', lotCode: 'L1', ordered: 10, received: 8, difference: -2, kind: 'shortage' },
    ]);
  });

  it('a product ordered in named lots only, received in another lot, shows that lot as a surplus (ordered 0)', () => {
    expect(receptionDifferences([line('A', 10, 'L1')], [line('A', 10, 'L1'), line('A', 2, 'L9')]).lines).toEqual([
      { productExternalCode: 'A', lotCode: 'L9', ordered: 0, received: 2, difference: 2, kind: 'surplus' },
    ]);
  });

  it('products the document did not order are unknown products, per lot; an empty lot is no lot', () => {
    const result = receptionDifferences(
      [line('A', 1)],
      [line('A', 1), line('Z', 2, 'L1'), line('Z', 1, ''), line('Y', 0)],
    );
    expect(result).toEqual({
      hasDifferences: true,
      lines: [],
      unknownProducts: [
        { productExternalCode: 'Z', lotCode: null, received: 1 },
        { productExternalCode: 'Z', lotCode: 'L1', received: 2 },
      ],
    });
  });

  it('decimal quantities do not leave float dust: 0.1 + 0.2 received against 0.3 ordered is no difference', () => {
    expect(receptionDifferences([line('A', 0.3)], [line('A', 0.1), line('A', 0.2)]).hasDifferences).toBe(false);
  });

  const product = fc.constantFrom<string>('A', 'B', 'C', 'D');
  const lot = fc.constantFrom(null, '', 'L1', 'L2');
  const quantity = fc.integer({ min: 0, max: 1000 }).map((n) => n / 4);
  const lines = fc.array(fc.record({ productExternalCode: product, lotCode: lot, quantity }), { maxLength: 12 });

  it('property: Σ received − Σ ordered = Σ differences + Σ unknown products', () => {
    fc.assert(
      fc.property(lines, lines, (ordered, received) => {
        const r = receptionDifferences(ordered, received);
        const lhs = sum(received.map((l) => l.quantity)) - sum(ordered.map((l) => l.quantity));
        const rhs = sum(r.lines.map((l) => l.difference)) + sum(r.unknownProducts.map((u) => u.received));
        expect(rhs).toBeCloseTo(lhs, 6);
      }),
    );
  });

  it('property: every listed line is a real difference with the right sign and arithmetic, and unknown products were never ordered', () => {
    fc.assert(
      fc.property(lines, lines, (ordered, received) => {
        const r = receptionDifferences(ordered, received);
        const orderedProducts = new Set(ordered.map((l) => l.productExternalCode));
        for (const l of r.lines) {
          expect(l.difference).not.toBe(0);
          expect(l.difference).toBeCloseTo(l.received - l.ordered, 6);
          expect(l.kind).toBe(l.difference > 0 ? 'surplus' : 'shortage');
          expect(orderedProducts.has(l.productExternalCode)).toBe(true);
        }
        for (const u of r.unknownProducts) expect(orderedProducts.has(u.productExternalCode)).toBe(false);
        expect(r.hasDifferences).toBe(r.lines.length + r.unknownProducts.length > 0);
      }),
    );
  });

  it('property: receiving exactly the ordered lines, in any order, shows no difference', () => {
    fc.assert(
      fc.property(
        lines.chain((o) =>
          fc.tuple(fc.constant(o), fc.shuffledSubarray(o, { minLength: o.length, maxLength: o.length })),
        ),
        ([ordered, received]) => {
          expect(receptionDifferences(ordered, received).hasDifferences).toBe(false);
        },
      ),
    );
  });
});
