import type { CategoryAllocation, Document, DocumentLine, DocumentStatus, DocumentType } from '../../wms/index.js';
import { bool, type EmulatorContext } from '../context.js';
import { compact, groupBy, placeholders } from '../shape.js';

export const DOCUMENT_ENTITY = 'document';

export interface DocumentRow {
  id: number;
  tenant_id: string;
  external_code: string;
  document_number: string;
  document_type: DocumentType;
  status: DocumentStatus;
  year: number;
  series: string;
  number: number;
  code: string;
  document_external_type: string | null;
  reference: string | null;
  observations: string | null;
  document_date: string | null;
  origin_external_code: string | null;
  destination_external_code: string | null;
  delivery_point_external_code: string | null;
  delivery_date: string | null;
  charge: number | null;
  charge_value: number | null;
  carrier: string | null;
  delivery_place: string | null;
  created_at: number;
  updated_at: number;
}

export interface DocumentLineRow {
  id: number;
  document_id: number;
  line_number: number;
  quantity: number;
  product_external_code: string;
  lot_code: string | null;
  supplier_lot_code: string | null;
  supplier_code: string | null;
  serial_number: string | null;
  external_code: string | null;
  quality_status_code: string | null;
  container_code: string | null;
  categories: string | null;
}

function toLine(row: DocumentLineRow): DocumentLine {
  return compact({
    lineNumber: row.line_number,
    quantity: row.quantity,
    productExternalCode: row.product_external_code,
    lotCode: row.lot_code,
    supplierLotCode: row.supplier_lot_code,
    supplierCode: row.supplier_code,
    serialNumber: row.serial_number,
    externalCode: row.external_code,
    qualityStatusCode: row.quality_status_code,
    containerCode: row.container_code,
    categories: row.categories === null ? null : (JSON.parse(row.categories) as CategoryAllocation[]),
  });
}

function toDocument(row: DocumentRow, lines: DocumentLine[]): Document {
  return compact({
    externalCode: row.external_code,
    documentNumber: row.document_number,
    documentType: row.document_type,
    documentExternalType: row.document_external_type,
    reference: row.reference,
    observations: row.observations,
    documentDate: row.document_date,
    originExternalCode: row.origin_external_code,
    destinationExternalCode: row.destination_external_code,
    deliveryPointExternalCode: row.delivery_point_external_code,
    deliveryDate: row.delivery_date,
    charge: row.charge === null ? null : bool(row.charge),
    chargeValue: row.charge_value,
    carrier: row.carrier,
    deliveryPlace: row.delivery_place,
    lines,
  });
}

export function documentLineRows(ctx: EmulatorContext, documentIds: readonly number[]): DocumentLineRow[] {
  if (documentIds.length === 0) return [];
  return ctx
    .sql(
      `SELECT * FROM document_lines WHERE document_id IN (${placeholders(documentIds.length)}) ORDER BY document_id, line_number`,
    )
    .all(...documentIds) as DocumentLineRow[];
}

/** Documents as the API answers them, lines in line-number order. */
export function documentDtos(ctx: EmulatorContext, rows: readonly DocumentRow[]): Document[] {
  const linesOf = groupBy(
    documentLineRows(
      ctx,
      rows.map((r) => r.id),
    ),
    (l) => l.document_id,
  );
  return rows.map((row) => toDocument(row, (linesOf.get(row.id) ?? []).map(toLine)));
}

export function findDocumentRow(ctx: EmulatorContext, tenantId: string, externalCode: string): DocumentRow | undefined {
  return ctx.sql('SELECT * FROM documents WHERE tenant_id = ? AND external_code = ?').get(tenantId, externalCode) as
    | DocumentRow
    | undefined;
}

/** By the WMS's own document code (e.g. `PO2025/7`), as warehouse operations refer to it. */
export function findDocumentRowByCode(ctx: EmulatorContext, tenantId: string, code: string): DocumentRow | undefined {
  return ctx.sql('SELECT * FROM documents WHERE tenant_id = ? AND code = ?').get(tenantId, code) as
    | DocumentRow
    | undefined;
}
