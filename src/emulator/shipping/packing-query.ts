import type { Packing } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { type DocumentRow, findDocumentRow, findDocumentRowByCode } from '../documents/rows.js';
import { wmsError } from '../errors.js';
import { findWarehouseByAnyCode } from '../warehouses/warehouses.js';
import { packingDtos } from './packing-rows.js';
import type { ShippingOrderRow } from './rows.js';

/**
 * Endpoints 18 and 19: the packings of a document's shipping order in a warehouse (a JSON array of
 * RestAPIClosePackingDTO, one per packing and product/lot). The warehouse is named by its code or
 * by its external code (what stock webhooks carry). 404 for an unknown warehouse, document
 * without shipping order there, or an order shipped without packing; 400 (spec: "shipping order
 * has invalid status") while nothing is packed yet (NEW, PICKING) or when it was cancelled.
 */
function packingOf(
  ctx: TenantContext,
  warehouseCode: string,
  document: DocumentRow | undefined,
  asked: string,
): Packing[] {
  const warehouse = findWarehouseByAnyCode(ctx, ctx.tenant.id, warehouseCode);
  if (!warehouse) throw wmsError.notFound('warehouse', `Warehouse "${warehouseCode}" not found`);
  const order = document
    ? (ctx
        .sql(
          "SELECT * FROM shipping_orders WHERE document_id = ? AND warehouse_id = ? ORDER BY status = 'CANCELLED', id DESC LIMIT 1",
        )
        .get(document.id, warehouse.id) as ShippingOrderRow | undefined)
    : undefined;
  if (!order)
    throw wmsError.notFound(
      'shippingOrder',
      `No shipping order for document "${asked}" in warehouse "${warehouseCode}"`,
    );
  if (order.status !== 'PACKED' && order.status !== 'DISPATCHED') {
    throw wmsError.badRequest(
      'shippingOrder',
      'invalidstatus',
      `Shipping order "${order.code}" is ${order.status}: it has no packing to show`,
    );
  }
  const packings = packingDtos(ctx, order.id);
  if (packings.length === 0)
    throw wmsError.notFound('packing', `Shipping order "${order.code}" was dispatched without packing`);
  return packings;
}

/** Endpoint 18: by the document's external code. */
export function packingByExternalCode(
  ctx: TenantContext,
  query: { warehouse: string; externalCode: string },
): Packing[] {
  return packingOf(ctx, query.warehouse, findDocumentRow(ctx, ctx.tenant.id, query.externalCode), query.externalCode);
}

/** Endpoint 19: by the WMS's document code (e.g. `CE2025/4`). */
export function packingByDocumentCode(
  ctx: TenantContext,
  query: { warehouse: string; documentCode: string },
): Packing[] {
  return packingOf(
    ctx,
    query.warehouse,
    findDocumentRowByCode(ctx, ctx.tenant.id, query.documentCode),
    query.documentCode,
  );
}
