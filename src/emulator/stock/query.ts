import type { Stock, StockRequest } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { compact, placeholders } from '../shape.js';
import { round } from './quantity.js';

interface Sums {
  product_id: number;
  lot_code: string;
  bulk: number;
  containers: number;
  reserved: number;
}

interface Wanted {
  product: string;
  lot: string | null;
}

// SQLite's bound-parameter limit is far above this; chunks keep each statement's text cacheable.
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** spec rule 3: `products` overrides `product`/`lot`; neither: every product with stock. */
function wantedOf(request: StockRequest): Wanted[] | undefined {
  const list = request.products ?? (request.product ? [{ product: request.product, lot: request.lot }] : undefined);
  if (!list) return undefined;
  const seen = new Set<string>();
  const out: Wanted[] = [];
  for (const item of list) {
    const key = `${item.product}\u0000${item.lot ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ product: item.product, lot: item.lot || null });
  }
  return out;
}

/** spec: "when location is filled, location is used to produce the results" (and shippingProcess is not). */
function placeFilter(
  ctx: TenantContext,
  request: StockRequest,
): { sql: string; params: unknown[]; node: string | undefined } {
  if (request.location) return { sql: 's.location = ?', params: [request.location], node: request.location };
  if (request.shippingProcess) {
    return {
      sql: 's.warehouse_id IN (SELECT w.id FROM warehouses w WHERE w.tenant_id = ? AND w.shipping_process = ?)',
      params: [ctx.tenant.id, request.shippingProcess],
      node: request.shippingProcess,
    };
  }
  return { sql: '1', params: [], node: undefined };
}

function row(
  sums: Omit<Sums, 'product_id' | 'lot_code'>,
  product: string,
  lot: string | undefined,
  node: string | undefined,
  expirationDate?: string | null,
): Stock {
  const existence = round(sums.bulk + sums.containers);
  return compact({
    bulk: round(sums.bulk),
    containers: round(sums.containers),
    reservedShipping: round(sums.reserved),
    existence,
    available: round(existence - sums.reserved),
    node,
    product,
    lot,
    expirationDate,
  });
}

const ZERO = { bulk: 0, containers: 0, reserved: 0 };
const nonZero = (s: Sums) => s.bulk !== 0 || s.containers !== 0 || s.reserved !== 0;

function expirations(ctx: TenantContext, productIds: number[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const ids of chunks(productIds)) {
    const rows = ctx
      .sql(
        `SELECT product_id, code, expiration_date FROM product_lots WHERE product_id IN (${placeholders(ids.length)})`,
      )
      .all(...ids) as { product_id: number; code: string; expiration_date: string | null }[];
    for (const r of rows) out.set(`${r.product_id}\u0000${r.code}`, r.expiration_date);
  }
  return out;
}

/**
 * Endpoint 7: a JSON array of Stock rows (ARCHITECTURE.md): one per requested product, one per
 * lot with `groupedByLot` (with the lot's expiration date), `node` naming the location or shipping
 * process the figures are limited to. existence = bulk + containers; available = existence −
 * reservedShipping. 404 when a requested product is unknown. Sums come from one grouped query per
 * 500 products over the (product, lot, …) index.
 */
export function queryStock(ctx: TenantContext, request: StockRequest): Stock[] {
  const wanted = wantedOf(request);
  const place = placeFilter(ctx, request);
  const grouped = request.groupedByLot === true;

  let ids = new Map<string, number>();
  let sums: Sums[] = [];
  if (wanted) {
    const codes = [...new Set(wanted.map((w) => w.product))];
    for (const part of chunks(codes)) {
      const found = ctx
        .sql(
          `SELECT external_code, id FROM products WHERE tenant_id = ? AND origin = 'api' AND external_code IN (${placeholders(part.length)})`,
        )
        .raw()
        .all(ctx.tenant.id, ...part) as [string, number][];
      for (const [code, id] of found) ids.set(code, id);
    }
    const missing = codes.filter((c) => !ids.has(c));
    if (missing.length > 0) throw wmsError.notFound('product', `Product not found: ${missing.join(', ')}`);
    for (const part of chunks([...ids.values()])) {
      sums.push(
        ...(ctx
          .sql(
            `SELECT s.product_id, s.lot_code, sum(s.bulk) AS bulk, sum(s.containers) AS containers, sum(s.reserved) AS reserved
             FROM stock s WHERE s.product_id IN (${placeholders(part.length)}) AND ${place.sql} GROUP BY s.product_id, s.lot_code`,
          )
          .all(...part, ...place.params) as Sums[]),
      );
    }
  } else {
    sums = ctx
      .sql(
        `SELECT s.product_id, s.lot_code, sum(s.bulk) AS bulk, sum(s.containers) AS containers, sum(s.reserved) AS reserved
         FROM stock s WHERE s.tenant_id = ? AND ${place.sql} GROUP BY s.product_id, s.lot_code ORDER BY s.product_id, s.lot_code`,
      )
      .all(ctx.tenant.id, ...place.params) as Sums[];
    sums = sums.filter(nonZero);
    const productIds = [...new Set(sums.map((s) => s.product_id))];
    ids = new Map();
    for (const part of chunks(productIds)) {
      const found = ctx
        .sql(`SELECT external_code, id FROM products WHERE id IN (${placeholders(part.length)}) AND origin = 'api'`)
        .raw()
        .all(...part) as [string, number][];
      for (const [code, id] of found) ids.set(code, id);
    }
  }

  const byProduct = new Map<number, Sums[]>();
  for (const s of sums) {
    const list = byProduct.get(s.product_id);
    if (list) list.push(s);
    else byProduct.set(s.product_id, [s]);
  }
  const expiry = grouped ? expirations(ctx, [...new Set(ids.values())]) : new Map<string, string | null>();
  const targets: Wanted[] =
    wanted ?? [...ids.keys()].sort((a, b) => ids.get(a)! - ids.get(b)!).map((product) => ({ product, lot: null }));

  const out: Stock[] = [];
  for (const target of targets) {
    const productId = ids.get(target.product)!;
    const lots = (byProduct.get(productId) ?? []).filter((s) => target.lot === null || s.lot_code === target.lot);
    if (!grouped) {
      const total = lots.reduce(
        (a, s) => ({
          bulk: a.bulk + s.bulk,
          containers: a.containers + s.containers,
          reserved: a.reserved + s.reserved,
        }),
        ZERO,
      );
      out.push(row(total, target.product, target.lot ?? undefined, place.node));
      continue;
    }
    const shown = lots.filter(nonZero).sort((a, b) => (a.lot_code < b.lot_code ? -1 : a.lot_code > b.lot_code ? 1 : 0));
    if (shown.length === 0) {
      const lot = target.lot ?? undefined;
      out.push(row(ZERO, target.product, lot, place.node, lot ? expiry.get(`${productId}\u0000${lot}`) : undefined));
      continue;
    }
    for (const s of shown) {
      const lot = s.lot_code || undefined;
      out.push(row(s, target.product, lot, place.node, lot ? expiry.get(`${productId}\u0000${lot}`) : undefined));
    }
  }
  return out;
}
