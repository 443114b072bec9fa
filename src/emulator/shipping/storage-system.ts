import type { CommonResult, StorageSystemLine } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import type { ProductRow } from '../products/rows.js';
import { EPSILON, round } from '../stock/quantity.js';
import { completeIfDispatched, dispatchFromPick } from './dispatch.js';
import { findShippingOrderRow, pickRows, type ShippingOrderRow } from './rows.js';

const ENTITY = 'storageSystem';

/**
 * Endpoint 20: an automated storage system reports what it dispatched. Each line names the
 * shipping order (`orderNumber`, its code such as `SO2025-4`), the product (`productCode`, its
 * SKU or external code), optionally the lot, and a positive quantity; the quantity must be picked
 * and not yet dispatched on that order. Lines are checked all first: any invalid line answers 400
 * and nothing is applied. Then the picked units leave the stock; an order whose picks have all
 * left is fully dispatched (document EXECUTED, close webhook queued).
 */
export function storageSystemDispatched(
  ctx: TenantContext,
  lines: readonly StorageSystemLine[],
): { result: CommonResult; webhookIds: number[] } {
  const outcome = ctx.db.transaction(() => {
    if (lines.length === 0)
      throw wmsError.badRequest(ENTITY, 'dispatchedinvalid', 'Invalid dispatched result: no lines');
    const problems: string[] = [];
    const orders = new Map<string, ShippingOrderRow>();
    const planned: {
      order: ShippingOrderRow;
      product: ProductRow;
      lot: string | null;
      quantity: number;
      index: number;
    }[] = [];
    for (const [index, line] of lines.entries()) {
      const at = `[${index}]`;
      if (!line.orderNumber) {
        problems.push(`${at}.orderNumber is required`);
        continue;
      }
      if (!line.productCode) {
        problems.push(`${at}.productCode is required`);
        continue;
      }
      if (line.quantity === null || line.quantity === undefined || !(line.quantity > 0)) {
        problems.push(`${at}.quantity must be above zero`);
        continue;
      }
      const order = orders.get(line.orderNumber) ?? findShippingOrderRow(ctx, ctx.tenant.id, line.orderNumber);
      if (!order) {
        problems.push(`${at}: shipping order "${line.orderNumber}" not found`);
        continue;
      }
      if (order.status !== 'PICKING' && order.status !== 'PACKED') {
        problems.push(`${at}: shipping order "${line.orderNumber}" is ${order.status}`);
        continue;
      }
      orders.set(order.code, order);
      const product = ctx
        .sql(
          "SELECT * FROM products WHERE tenant_id = ? AND origin = 'api' AND (sku = ? OR external_code = ?) ORDER BY sku = ? DESC LIMIT 1",
        )
        .get(ctx.tenant.id, line.productCode, line.productCode, line.productCode) as ProductRow | undefined;
      if (!product) {
        problems.push(`${at}: product "${line.productCode}" not found`);
        continue;
      }
      planned.push({ order, product, lot: line.lot || null, quantity: line.quantity, index });
    }
    // Applied as it goes: a problem found later throws, and the transaction undoes it all.
    for (const order of orders.values()) {
      const picks = pickRows(ctx, order.id);
      for (const step of planned.filter((p) => p.order.id === order.id)) {
        let left = step.quantity;
        for (const pick of picks) {
          if (pick.product_id !== step.product.id || (step.lot !== null && pick.lot_code !== step.lot)) continue;
          const take = Math.min(left, round(pick.quantity - pick.dispatched));
          if (take <= EPSILON) continue;
          dispatchFromPick(ctx, pick, take);
          pick.dispatched = round(pick.dispatched + take);
          left = round(left - take);
        }
        if (left > EPSILON)
          problems.push(
            `[${step.index}]: ${step.quantity} of "${step.product.external_code}"${step.lot ? ` lot "${step.lot}"` : ''} is more than shipping order "${order.code}" has picked and not dispatched`,
          );
      }
    }
    if (problems.length > 0)
      throw wmsError.badRequest(ENTITY, 'dispatchedinvalid', `Invalid dispatched result: ${problems.join('; ')}`);
    const webhookIds: number[] = [];
    for (const order of orders.values()) {
      const { webhookId } = completeIfDispatched(ctx, order, order.observations);
      if (webhookId !== null) webhookIds.push(webhookId);
    }
    const names = [...orders.keys()].join(',');
    return { result: { success: true, message: `${lines.length} line(s) dispatched`, orderName: names }, webhookIds };
  })();
  if (outcome.webhookIds.length > 0) ctx.events.emit('queued');
  return outcome;
}
