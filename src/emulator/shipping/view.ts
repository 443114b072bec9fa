import type { Packing } from '../../wms/index.js';
import { type ClosingDocumentView, closingDocumentViews } from '../closing/closing-documents.js';
import type { EmulatorContext } from '../context.js';
import { type DocumentRow, documentLineRows } from '../documents/rows.js';
import { serialsOf } from '../receptions/rows.js';
import { warehouseById } from '../warehouses/warehouses.js';
import { packingDtos } from './packing-rows.js';
import { pickRows, type ShippingOrderRow, type ShippingStatus } from './rows.js';

export interface ShippingOrderView {
  id: number;
  shippingOrderCode: string;
  status: ShippingStatus;
  warehouse: string;
  observations: string | null;
  document: { externalCode: string; documentNumber: string; documentType: string; code: string; status: string };
  ordered: { lineNumber: number; productExternalCode: string; lotCode: string | null; quantity: number }[];
  picks: {
    productExternalCode: string;
    lotCode: string | null;
    location: string;
    quantity: number;
    dispatched: number;
    serialNumbers: string[] | null;
  }[];
  /** As endpoints 18 and 19 answer them. */
  packings: Packing[];
  closingDocuments: ClosingDocumentView[];
  createdAt: string;
  dispatchedAt: string | null;
}

export function shippingOrderView(ctx: EmulatorContext, row: ShippingOrderRow): ShippingOrderView {
  const document = ctx.sql('SELECT * FROM documents WHERE id = ?').get(row.document_id) as DocumentRow;
  return {
    id: row.id,
    shippingOrderCode: row.code,
    status: row.status,
    warehouse: warehouseById(ctx, row.warehouse_id).code,
    observations: row.observations,
    document: {
      externalCode: document.external_code,
      documentNumber: document.document_number,
      documentType: document.document_type,
      code: document.code,
      status: document.status,
    },
    ordered: documentLineRows(ctx, [document.id]).map((l) => ({
      lineNumber: l.line_number,
      productExternalCode: l.product_external_code,
      lotCode: l.lot_code,
      quantity: l.quantity,
    })),
    picks: pickRows(ctx, row.id).map((p) => ({
      productExternalCode: p.product_external_code,
      lotCode: p.lot_code || null,
      location: p.location,
      quantity: p.quantity,
      dispatched: p.dispatched,
      serialNumbers: serialsOf(p.serial_numbers),
    })),
    packings: packingDtos(ctx, row.id),
    closingDocuments: closingDocumentViews(ctx, 'shipping_order_id', row.id),
    createdAt: new Date(row.created_at).toISOString(),
    dispatchedAt: row.dispatched_at === null ? null : new Date(row.dispatched_at).toISOString(),
  };
}
