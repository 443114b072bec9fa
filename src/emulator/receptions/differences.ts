import type { ProductDifference, ProductLotDifference, ReceptionDifferences } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { placeholders } from '../shape.js';
import { round } from '../stock/quantity.js';
import { findReceptionRow, receptionDocuments, receptionLines } from './rows.js';

type Quantities = Map<string, Map<string | null, number>>;

function add(map: Quantities, product: string, lot: string | null, quantity: number): void {
  const lots = map.get(product) ?? new Map<string | null, number>();
  lots.set(lot, (lots.get(lot) ?? 0) + quantity);
  map.set(product, lots);
}

const sum = (lots: Map<string | null, number> | undefined) =>
  [...(lots ?? new Map()).values()].reduce((a, b) => a + b, 0);

/**
 * Per-lot differences of one product (received − expected; zero differences left out). A document
 * line naming a lot expects that lot; a line without one expects any lot, so what arrived in lots
 * the documents do not name counts against it, reported with `lotCode` null. Without such a line,
 * each unexpected lot is a surplus of its own.
 */
function lotDifferences(
  product: string,
  expected: Map<string | null, number>,
  received: Map<string | null, number>,
): ProductLotDifference[] {
  const out: ProductLotDifference[] = [];
  const named = [...expected.keys()].filter((lot): lot is string => lot !== null);
  for (const lot of named)
    out.push({
      productExternalCode: product,
      lotCode: lot,
      quantity: round((received.get(lot) ?? 0) - expected.get(lot)!),
    });
  const unnamed = [...received.entries()].filter(([lot]) => lot === null || !expected.has(lot));
  if (expected.has(null)) {
    out.push({
      productExternalCode: product,
      lotCode: null,
      quantity: round(unnamed.reduce((a, [, q]) => a + q, 0) - expected.get(null)!),
    });
  } else {
    for (const [lot, quantity] of unnamed)
      out.push({ productExternalCode: product, lotCode: lot, quantity: round(quantity) });
  }
  return out.filter((d) => d.quantity !== 0);
}

/**
 * Endpoint 17: what was received against what the reception's documents ordered, per product and
 * lot and per product (spec: "positive = surplus, negative = shortage"), plus received products
 * the tenant does not know. 404 for a reception of another tenant or none.
 */
export function receptionDifferences(ctx: TenantContext, receptionCode: string): ReceptionDifferences {
  const reception = findReceptionRow(ctx, ctx.tenant.id, receptionCode);
  if (!reception) throw wmsError.notFound('reception', `Reception "${receptionCode}" not found`);
  const documents = receptionDocuments(ctx, reception.id);
  const expected: Quantities = new Map();
  const ids = documents.map((d) => d.id);
  const ordered = ctx
    .sql(
      `SELECT product_external_code, lot_code, quantity FROM document_lines WHERE document_id IN (${placeholders(ids.length)}) ORDER BY document_id, line_number`,
    )
    .all(...ids) as { product_external_code: string; lot_code: string | null; quantity: number }[];
  for (const line of ordered) add(expected, line.product_external_code, line.lot_code || null, line.quantity);

  const received: Quantities = new Map();
  const unknown = new Map<string, number>();
  for (const line of receptionLines(ctx, reception.id)) {
    if (line.product_id === null)
      unknown.set(line.product_external_code, (unknown.get(line.product_external_code) ?? 0) + line.quantity);
    else add(received, line.product_external_code, line.lot_code, line.quantity);
  }

  const products = [...new Set([...expected.keys(), ...received.keys()])];
  const productLotDifferences: ProductLotDifference[] = [];
  const productDifferences: ProductDifference[] = [];
  for (const product of products) {
    productLotDifferences.push(
      ...lotDifferences(product, expected.get(product) ?? new Map(), received.get(product) ?? new Map()),
    );
    const difference = round(sum(received.get(product)) - sum(expected.get(product)));
    if (difference !== 0) productDifferences.push({ productExternalCode: product, quantity: difference });
  }
  return {
    receptionCode: reception.code,
    receptionStatus: reception.status,
    documentNumbers: documents.map((d) => d.document_number),
    productLotDifferences,
    productDifferences,
    nonExistingProductDifferences: [...unknown.entries()].map(([productExternalCode, quantity]) => ({
      productExternalCode,
      quantity: round(quantity),
    })),
  };
}
