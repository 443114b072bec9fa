import type { EmulatorContext, TenantContext } from '../context.js';
import { ControlError } from '../errors.js';

/**
 * Shipping order statuses (the spec names none): NEW when opened, PICKING once lines are picked
 * (stock reserved), PACKED once packed, DISPATCHED when fully dispatched (stock removed), or
 * CANCELLED (reservations released).
 */
export const SHIPPING_STATUSES = ['NEW', 'PICKING', 'PACKED', 'DISPATCHED', 'CANCELLED'] as const;
export type ShippingStatus = (typeof SHIPPING_STATUSES)[number];

export interface ShippingOrderRow {
  id: number;
  tenant_id: string;
  code: string;
  document_id: number;
  warehouse_id: number;
  status: ShippingStatus;
  observations: string | null;
  created_at: number;
  dispatched_at: number | null;
}

export interface PickRow {
  id: number;
  shipping_order_id: number;
  stock_id: number;
  product_id: number;
  lot_code: string;
  serial_numbers: string | null;
  quantity: number;
  dispatched: number;
  /** Joined: the product's code, whether it has an API external code, the stock row's location. */
  product_external_code: string;
  origin: 'api' | 'wms';
  location: string;
}

export function findShippingOrderRow(
  ctx: EmulatorContext,
  tenantId: string,
  code: string,
): ShippingOrderRow | undefined {
  return ctx.sql('SELECT * FROM shipping_orders WHERE tenant_id = ? AND code = ?').get(tenantId, code) as
    | ShippingOrderRow
    | undefined;
}

/** For control actions: 404 `shipping_order_not_found`. */
export function mustFindShippingOrder(ctx: TenantContext, code: string): ShippingOrderRow {
  const row = findShippingOrderRow(ctx, ctx.tenant.id, code);
  if (!row)
    throw new ControlError(
      404,
      'shipping_order_not_found',
      `Shipping order "${code}" does not exist in tenant "${ctx.tenant.id}"`,
    );
  return row;
}

export function pickRows(ctx: EmulatorContext, shippingOrderId: number): PickRow[] {
  return ctx
    .sql(
      `SELECT k.*, p.external_code AS product_external_code, p.origin, s.location FROM shipping_picks k
       JOIN products p ON p.id = k.product_id JOIN stock s ON s.id = k.stock_id WHERE k.shipping_order_id = ? ORDER BY k.id`,
    )
    .all(shippingOrderId) as PickRow[];
}

export function setShippingStatus(ctx: EmulatorContext, id: number, status: ShippingStatus): void {
  ctx.sql('UPDATE shipping_orders SET status = ?, updated_at = ? WHERE id = ?').run(status, ctx.clock.nowMs(), id);
}

/** Statuses in which goods can still be picked, packed or dispatched. */
export const OPEN_SHIPPING_STATUSES: ReadonlySet<ShippingStatus> = new Set(['NEW', 'PICKING', 'PACKED']);
