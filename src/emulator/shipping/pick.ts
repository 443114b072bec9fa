import type { TenantContext } from '../context.js';
import { documentLineRows } from '../documents/rows.js';
import { ControlError } from '../errors.js';
import { findAnyProductRow } from '../products/rows.js';
import { checkTracking } from '../stock/lot-rules.js';
import { EPSILON, round } from '../stock/quantity.js';
import { allocate, reserve } from '../stock/store.js';
import {
  mustFindShippingOrder,
  OPEN_SHIPPING_STATUSES,
  pickRows,
  type ShippingOrderRow,
  setShippingStatus,
} from './rows.js';
import { type ShippingOrderView, shippingOrderView } from './view.js';

export interface PickLineInput {
  productExternalCode: string;
  quantity: number;
  /** Without one, a lot-tracked product is picked first-expiring-first across its lots. */
  lotCode?: string | null | undefined;
  location?: string | undefined;
  serialNumbers?: string[] | null | undefined;
}

/** What the document ordered and is not picked yet, line by line (lot as ordered, or any lot). */
function remainingLines(ctx: TenantContext, order: ShippingOrderRow): PickLineInput[] {
  const picked = pickRows(ctx, order.id);
  const used = new Map<number, number>();
  const out: PickLineInput[] = [];
  for (const line of documentLineRows(ctx, [order.document_id])) {
    let left = line.quantity;
    for (const pick of picked) {
      if (
        pick.product_external_code !== line.product_external_code ||
        (line.lot_code && pick.lot_code !== line.lot_code)
      )
        continue;
      const take = Math.min(left, pick.quantity - (used.get(pick.id) ?? 0));
      if (take <= 0) continue;
      used.set(pick.id, (used.get(pick.id) ?? 0) + take);
      left = round(left - take);
    }
    if (left > EPSILON)
      out.push({ productExternalCode: line.product_external_code, quantity: left, lotCode: line.lot_code });
  }
  return out;
}

/**
 * Picks goods for a shipping order: each line reserves stock in the order's warehouse (spec:
 * reservedShipping), first-expiring lot first unless a lot is named; stock is removed only at
 * dispatch. Without `lines`, everything the document ordered and is not picked yet. Only products
 * the document orders; 409 `insufficient_stock` when the warehouse has too little available.
 */
export function pickShippingOrder(
  ctx: TenantContext,
  code: string,
  input: { lines?: PickLineInput[] | undefined } = {},
): ShippingOrderView {
  return ctx.db.transaction(() => {
    const order = mustFindShippingOrder(ctx, code);
    if (!OPEN_SHIPPING_STATUSES.has(order.status))
      throw new ControlError(409, 'shipping_order_closed', `Shipping order "${code}" is ${order.status}`);
    const ordered = new Set(documentLineRows(ctx, [order.document_id]).map((l) => l.product_external_code));
    const lines = input.lines ?? remainingLines(ctx, order);
    if (lines.length === 0)
      throw new ControlError(409, 'nothing_to_pick', `Shipping order "${code}": everything ordered is picked`);
    const insert = ctx.sql(
      `INSERT INTO shipping_picks (shipping_order_id, stock_id, product_id, lot_code, serial_numbers, quantity, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const line of lines) {
      const product = findAnyProductRow(ctx, ctx.tenant.id, line.productExternalCode);
      if (!product || !ordered.has(line.productExternalCode)) {
        throw new ControlError(
          400,
          'not_ordered',
          `Product "${line.productExternalCode}" is not on the document of shipping order "${code}"`,
        );
      }
      checkTracking(ctx, product, line, { needsExpiry: false, anyLot: true });
      const allocations = allocate(
        ctx,
        {
          productId: product.id,
          productCode: product.external_code,
          lotCode: line.lotCode,
          warehouseId: order.warehouse_id,
          location: line.location,
        },
        line.quantity,
      );
      let serial = 0;
      for (const a of allocations) {
        reserve(ctx, a.stockId, a.quantity);
        const serials = line.serialNumbers?.slice(serial, serial + a.quantity) ?? [];
        serial += a.quantity;
        insert.run(
          order.id,
          a.stockId,
          product.id,
          a.lotCode,
          serials.length > 0 ? JSON.stringify(serials) : null,
          a.quantity,
          ctx.clock.nowMs(),
        );
      }
    }
    if (order.status === 'NEW') setShippingStatus(ctx, order.id, 'PICKING');
    return shippingOrderView(ctx, mustFindShippingOrder(ctx, code));
  })();
}
