import type { ReceptionStatus } from '../../wms/index.js';
import { type ClosingDocumentView, closingDocumentViews } from '../closing/closing-documents.js';
import type { EmulatorContext } from '../context.js';
import { bool } from '../context.js';
import { warehouseById } from '../warehouses/warehouses.js';
import { type ReceptionRow, receptionDocuments, receptionLines, serialsOf } from './rows.js';

export interface ReceptionView {
  id: number;
  receptionCode: string;
  status: ReceptionStatus;
  warehouse: string;
  observations: string | null;
  documents: { externalCode: string; documentNumber: string; documentType: string; code: string; status: string }[];
  lines: {
    id: number;
    documentExternalCode: string;
    productExternalCode: string;
    /** False for products unknown to the tenant: they are not stocked and show in nonExistingProductDifferences. */
    knownProduct: boolean;
    lotCode: string | null;
    expirationDate: string | null;
    serialNumbers: string[] | null;
    quantity: number;
    location: string;
    inContainers: boolean;
  }[];
  closingDocuments: ClosingDocumentView[];
  createdAt: string;
  closedAt: string | null;
}

export function receptionView(ctx: EmulatorContext, row: ReceptionRow): ReceptionView {
  const documents = receptionDocuments(ctx, row.id);
  const codeOf = new Map(documents.map((d) => [d.id, d.external_code]));
  return {
    id: row.id,
    receptionCode: row.code,
    status: row.status,
    warehouse: warehouseById(ctx, row.warehouse_id).code,
    observations: row.observations,
    documents: documents.map((d) => ({
      externalCode: d.external_code,
      documentNumber: d.document_number,
      documentType: d.document_type,
      code: d.code,
      status: d.status,
    })),
    lines: receptionLines(ctx, row.id).map((l) => ({
      id: l.id,
      documentExternalCode: codeOf.get(l.document_id)!,
      productExternalCode: l.product_external_code,
      knownProduct: l.product_id !== null,
      lotCode: l.lot_code,
      expirationDate: l.expiration_date,
      serialNumbers: serialsOf(l.serial_numbers),
      quantity: l.quantity,
      location: l.location,
      inContainers: bool(l.in_containers),
    })),
    closingDocuments: closingDocumentViews(ctx, 'reception_id', row.id),
    createdAt: new Date(row.created_at).toISOString(),
    closedAt: row.closed_at === null ? null : new Date(row.closed_at).toISOString(),
  };
}
