import type { TenantContext } from '../context.js';
import { ControlError } from '../errors.js';
import { EPSILON, round } from './quantity.js';

/** Where stock sits: product, lot ('' or null for none), warehouse and location. */
export interface StockPlace {
  productId: number;
  lotCode: string | null | undefined;
  warehouseId: number;
  location: string;
}

export interface StockRow {
  id: number;
  product_id: number;
  lot_code: string;
  warehouse_id: number;
  location: string;
  bulk: number;
  containers: number;
  reserved: number;
}

/** Adds to the loose units (bulk) or to the quantity in containers of one place; returns its row id. */
export function addStock(ctx: TenantContext, place: StockPlace, quantity: number, inContainers = false): number {
  const row = ctx
    .sql(
      `INSERT INTO stock (tenant_id, product_id, lot_code, warehouse_id, location, bulk, containers) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (product_id, lot_code, warehouse_id, location)
       DO UPDATE SET bulk = bulk + excluded.bulk, containers = containers + excluded.containers RETURNING id`,
    )
    .get(
      ctx.tenant.id,
      place.productId,
      place.lotCode ?? '',
      place.warehouseId,
      place.location,
      inContainers ? 0 : quantity,
      inContainers ? quantity : 0,
    ) as {
    id: number;
  };
  return row.id;
}

/** Takes units out of one row: loose units first, then containers. Reservations are the caller's. */
export function takeFromRow(ctx: TenantContext, stockId: number, quantity: number): void {
  const row = ctx.sql('SELECT bulk, containers FROM stock WHERE id = ?').get(stockId) as {
    bulk: number;
    containers: number;
  };
  const fromBulk = Math.min(row.bulk, quantity);
  ctx
    .sql('UPDATE stock SET bulk = ?, containers = ? WHERE id = ?')
    .run(round(row.bulk - fromBulk), round(row.containers - (quantity - fromBulk)), stockId);
}

export interface Allocation {
  stockId: number;
  lotCode: string;
  quantity: number;
}

/**
 * Splits a quantity over the rows of a product (and lot, and location, when given) in one
 * warehouse that have units available (existence − reserved): first expiring first, then by lot
 * code and row. 409 `insufficient_stock` when there are not enough.
 */
export function allocate(
  ctx: TenantContext,
  filter: {
    productId: number;
    productCode: string;
    lotCode?: string | null | undefined;
    warehouseId: number;
    location?: string | null | undefined;
  },
  quantity: number,
): Allocation[] {
  const conditions = ['s.product_id = ?', 's.warehouse_id = ?'];
  const params: unknown[] = [filter.productId, filter.warehouseId];
  if (filter.lotCode) {
    conditions.push('s.lot_code = ?');
    params.push(filter.lotCode);
  }
  if (filter.location) {
    conditions.push('s.location = ?');
    params.push(filter.location);
  }
  const rows = ctx
    .sql(
      `SELECT s.id, s.lot_code, s.bulk + s.containers - s.reserved AS available FROM stock s
       LEFT JOIN product_lots l ON l.product_id = s.product_id AND l.code = s.lot_code
       WHERE ${conditions.join(' AND ')} AND s.bulk + s.containers - s.reserved > ${EPSILON}
       ORDER BY l.expiration_date IS NULL, l.expiration_date, s.lot_code, s.id`,
    )
    .all(...params) as { id: number; lot_code: string; available: number }[];
  const out: Allocation[] = [];
  let left = quantity;
  for (const row of rows) {
    if (left <= EPSILON) break;
    const take = Math.min(row.available, left);
    out.push({ stockId: row.id, lotCode: row.lot_code, quantity: round(take) });
    left = round(left - take);
  }
  if (left > EPSILON) {
    const available = round(quantity - left);
    const where = `${filter.lotCode ? ` lot "${filter.lotCode}"` : ''}${filter.location ? ` at "${filter.location}"` : ''}`;
    throw new ControlError(
      409,
      'insufficient_stock',
      `Product "${filter.productCode}"${where}: ${quantity} needed, ${available} available`,
    );
  }
  return out;
}

export function reserve(ctx: TenantContext, stockId: number, quantity: number): void {
  ctx.sql('UPDATE stock SET reserved = round(reserved + ?, 6) WHERE id = ?').run(quantity, stockId);
}
