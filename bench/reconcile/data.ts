/**
 * The stock the reconciliation benchmark works on, computed the same way by the emulator process
 * (which holds it) and the seeding step (which teaches the service the same figures through its
 * ledger): PRODUCTS products, one in nine with two lots, so 100,000 product/lot rows for 90,000.
 */
export const TENANT = 'bench';

export interface Row {
  product: string;
  lot: string | null;
  quantity: number;
}

export const productCode = (i: number): string => `P${String(i).padStart(6, '0')}`;
export const hasLots = (i: number): boolean => i % 9 === 0;

/** The rows of product i as the WMS holds them. */
export function rowsOf(i: number): Row[] {
  const product = productCode(i);
  if (!hasLots(i)) return [{ product, lot: null, quantity: 10 + (i % 7) }];
  return [
    { product, lot: `L${i}`, quantity: 5 },
    { product, lot: `M${i}`, quantity: 3 },
  ];
}

export const rowCount = (products: number): number => products + Math.ceil(products / 9);

/** One row in `every` is learnt one unit short by the service: that much drift to find. */
export const drifts = (rowIndex: number, every: number): boolean => every > 0 && rowIndex % every === every - 1;
