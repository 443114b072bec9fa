/**
 * Differences between what a document ordered and what its reception received, per product, and
 * per lot where the order names one. Pure: tested with fast-check in test/inbound/differences.test.ts.
 *
 * - An ordered line with a lot is compared with what was received of that product in that lot.
 * - Ordered lines without a lot are compared with what was received of that product in any lot
 *   that no ordered line names.
 * - A product that was ordered only in named lots, received in another lot, shows that lot as
 *   ordered 0 (a surplus of a known product).
 * - A product the document does not order at all is listed in `unknownProducts`.
 * Only non-zero differences are listed: received − ordered, positive = surplus, negative = shortage.
 * Invariant: Σ received − Σ ordered = Σ lines[].difference + Σ unknownProducts[].received.
 */

export interface QuantityLine {
  productExternalCode: string;
  lotCode?: string | null;
  quantity: number;
}

export interface DifferenceLine {
  productExternalCode: string;
  lotCode: string | null;
  ordered: number;
  received: number;
  difference: number;
  kind: 'surplus' | 'shortage';
}

export interface UnknownProduct {
  productExternalCode: string;
  lotCode: string | null;
  received: number;
}

export interface ReceptionDifferences {
  hasDifferences: boolean;
  lines: DifferenceLine[];
  unknownProducts: UnknownProduct[];
}

/** Quantities are decimals on the wire; sums are rounded to 6 places so 0.1 + 0.2 equals 0.3. */
const round = (n: number) => Math.round(n * 1e6) / 1e6 + 0;

const NO_LOT = '';
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const lotOf = (line: QuantityLine) => line.lotCode || NO_LOT;

function add(map: Map<string, number>, key: string, quantity: number): void {
  map.set(key, (map.get(key) ?? 0) + quantity);
}

function byProduct(lines: readonly QuantityLine[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of lines) {
    let lots = out.get(line.productExternalCode);
    if (!lots) out.set(line.productExternalCode, (lots = new Map()));
    add(lots, lotOf(line), line.quantity);
  }
  return out;
}

export function receptionDifferences(
  ordered: readonly QuantityLine[],
  received: readonly QuantityLine[],
): ReceptionDifferences {
  const orderedByProduct = byProduct(ordered);
  const receivedByProduct = byProduct(received);
  const compared: Omit<DifferenceLine, 'difference' | 'kind'>[] = [];

  for (const [product, orderedLots] of orderedByProduct) {
    const rest = new Map(receivedByProduct.get(product) ?? []);
    for (const [lot, quantity] of orderedLots) {
      if (lot === NO_LOT) continue;
      compared.push({ productExternalCode: product, lotCode: lot, ordered: quantity, received: rest.get(lot) ?? 0 });
      rest.delete(lot);
    }
    const anyLot = orderedLots.get(NO_LOT);
    if (anyLot !== undefined) {
      let receivedElsewhere = 0;
      for (const q of rest.values()) receivedElsewhere += q;
      compared.push({ productExternalCode: product, lotCode: null, ordered: anyLot, received: receivedElsewhere });
    } else {
      for (const [lot, quantity] of rest)
        compared.push({ productExternalCode: product, lotCode: lot || null, ordered: 0, received: quantity });
    }
  }

  const lines: DifferenceLine[] = [];
  for (const c of compared) {
    const difference = round(c.received - c.ordered);
    if (difference === 0) continue;
    lines.push({
      ...c,
      ordered: round(c.ordered),
      received: round(c.received),
      difference,
      kind: difference > 0 ? 'surplus' : 'shortage',
    });
  }
  const unknownProducts: UnknownProduct[] = [];
  for (const [product, lots] of receivedByProduct) {
    if (orderedByProduct.has(product)) continue;
    for (const [lot, quantity] of lots) {
      if (round(quantity) !== 0)
        unknownProducts.push({ productExternalCode: product, lotCode: lot || null, received: round(quantity) });
    }
  }
  const order = (a: { productExternalCode: string; lotCode: string | null }, b: typeof a) =>
    compare(a.productExternalCode, b.productExternalCode) || compare(a.lotCode ?? '', b.lotCode ?? '');
  lines.sort(order);
  unknownProducts.sort(order);
  return { hasDifferences: lines.length > 0 || unknownProducts.length > 0, lines, unknownProducts };
}
