import type { TenantContext } from '../context.js';
import { findDocumentRow } from '../documents/rows.js';
import { setDocumentStatus } from '../documents/status.js';
import { ControlError } from '../errors.js';
import { nextNumber } from '../sequences.js';
import { resolveWarehouse } from '../warehouses/warehouses.js';
import { OUTBOUND_TYPES } from '../webhooks/routing.js';
import { findShippingOrderRow } from './rows.js';
import { type ShippingOrderView, shippingOrderView } from './view.js';

/**
 * A shipping order (NEW) for one outbound document, which moves to IN_PROGRESS. One open
 * shipping order per document at a time.
 */
export function openShippingOrder(
  ctx: TenantContext,
  input: { document: string; warehouse?: string | undefined },
): ShippingOrderView {
  return ctx.db.transaction(() => {
    const warehouse = resolveWarehouse(ctx, input.warehouse);
    const doc = findDocumentRow(ctx, ctx.tenant.id, input.document);
    if (!doc) throw new ControlError(404, 'document_not_found', `Document "${input.document}" does not exist`);
    if (!OUTBOUND_TYPES.has(doc.document_type)) {
      throw new ControlError(
        400,
        'not_outbound',
        `Document "${input.document}" is a ${doc.document_type}: it is received, not shipped`,
      );
    }
    if (doc.status !== 'CREATED' && doc.status !== 'IN_PROGRESS') {
      throw new ControlError(409, 'document_not_shippable', `Document "${input.document}" is ${doc.status}`);
    }
    const open = ctx
      .sql("SELECT code FROM shipping_orders WHERE document_id = ? AND status IN ('NEW', 'PICKING', 'PACKED')")
      .get(doc.id) as { code: string } | undefined;
    if (open)
      throw new ControlError(
        409,
        'shipping_order_exists',
        `Document "${input.document}" already has open shipping order "${open.code}"`,
      );
    const { code } = nextNumber(ctx, 'SO');
    const now = ctx.clock.nowMs();
    ctx
      .sql(
        "INSERT INTO shipping_orders (tenant_id, code, document_id, warehouse_id, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'NEW', ?, ?)",
      )
      .run(ctx.tenant.id, code, doc.id, warehouse.id, now, now);
    setDocumentStatus(ctx, doc.id, 'IN_PROGRESS');
    return shippingOrderView(ctx, findShippingOrderRow(ctx, ctx.tenant.id, code)!);
  })();
}
