import type { ExpectedFigure } from '../store/index.js';
import type { WmsClient } from '../wms-client/index.js';

/** A row of endpoint 7's answer, as the client parses it. */
type Stock = Awaited<ReturnType<WmsClient['products']['stock']>>[number];

/** One product/lot figure of an endpoint-7 answer, normalised ('' for no lot). */
export interface StockFigure {
  product: string;
  lot: string;
  existence: number;
  available: number | null;
}

/** One answered stock request: what was asked, what came back, and when it was sent and answered. */
export interface Observation {
  products: string[];
  figures: StockFigure[];
  sentAt: Date;
  answeredAt: Date;
}

export interface Comparison {
  productExternalCode: string;
  lotCode: string;
  wms: { existence: number; available: number | null };
  expected: {
    existence: number;
    baseline: number | null;
    baselineAsOf: Date | null;
    movements: number;
    movementCount: number;
  };
  /** WMS minus expected: what the ERP must apply. */
  delta: number;
}

/** Figures are compared at the WMS's own precision (it rounds to 6 decimals), so float sums never show as drift. */
export const round6 = (n: number): number => {
  const r = Math.round(n * 1e6) / 1e6;
  return r === 0 ? 0 : r;
};

export const pairKey = (product: string, lot: string): string => `${product}\u0000${lot}`;

/**
 * Endpoint-7 rows as figures per product/lot. A row without `product` can only be the product of
 * a one-product request; rows of products not asked for are dropped; rows of one pair are summed
 * (a WMS may answer per node).
 */
export function figuresOf(products: readonly string[], rows: readonly Stock[]): StockFigure[] {
  const asked = new Set(products);
  const out = new Map<string, StockFigure>();
  for (const row of rows) {
    const product = row.product ?? (products.length === 1 ? products[0] : undefined);
    if (product === undefined || !asked.has(product)) continue;
    const lot = row.lot ?? '';
    const existence = row.existence ?? (row.bulk ?? 0) + (row.containers ?? 0);
    const available = row.available ?? null;
    const key = pairKey(product, lot);
    const seen = out.get(key);
    if (seen) {
      seen.existence += existence;
      seen.available = seen.available === null || available === null ? null : seen.available + available;
    } else out.set(key, { product, lot, existence, available });
  }
  return [...out.values()];
}

/**
 * Compares the WMS's figures with the expected ones, pair by pair, over every pair either side
 * knows (a lot the WMS no longer lists is 0 there; a pair the service never heard of expects 0).
 * With `only`, just those pairs, each compared even when neither side lists it any more.
 */
export function compare(
  figures: readonly StockFigure[],
  expected: readonly ExpectedFigure[],
  only?: ReadonlySet<string>,
): Comparison[] {
  const pairs = new Map<string, { product: string; lot: string; wms?: StockFigure; exp?: ExpectedFigure }>();
  const entry = (product: string, lot: string) => {
    const key = pairKey(product, lot);
    if (only && !only.has(key)) return undefined;
    let e = pairs.get(key);
    if (!e) pairs.set(key, (e = { product, lot }));
    return e;
  };
  for (const f of figures) {
    const e = entry(f.product, f.lot);
    if (e) e.wms = f;
  }
  for (const x of expected) {
    const e = entry(x.productExternalCode, x.lotCode);
    if (e) e.exp = x;
  }
  for (const key of only ?? []) {
    if (pairs.has(key)) continue;
    const [product, lot] = key.split('\u0000') as [string, string];
    pairs.set(key, { product, lot });
  }
  const out: Comparison[] = [];
  for (const { product, lot, wms, exp } of pairs.values()) {
    const wmsExistence = round6(wms?.existence ?? 0);
    const expectedExistence = round6((exp?.baseline ?? 0) + (exp?.movements ?? 0));
    out.push({
      productExternalCode: product,
      lotCode: lot,
      wms: { existence: wmsExistence, available: wms ? (wms.available === null ? null : round6(wms.available)) : 0 },
      expected: {
        existence: expectedExistence,
        baseline: exp?.baseline ?? null,
        baselineAsOf: exp?.baselineAsOf ?? null,
        movements: round6(exp?.movements ?? 0),
        movementCount: exp?.movementCount ?? 0,
      },
      delta: round6(wmsExistence - expectedExistence),
    });
  }
  return out;
}
