import type { Document } from '../../wms/index.js';
import { flag, type TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { placeholders } from '../shape.js';
import { DOCUMENT_ENTITY } from './rows.js';

/** Line numbers are distinct; every line's product exists in the tenant (400 naming those missing). */
export function validateLines(ctx: TenantContext, input: Document): void {
  const lines = input.lines ?? [];
  const numbers = lines.map((l) => l.lineNumber);
  const repeated = numbers.find((n, i) => numbers.indexOf(n) !== i);
  if (repeated !== undefined) throw wmsError.validation(DOCUMENT_ENTITY, `lines: lineNumber ${repeated} appears twice`);
  const codes = [...new Set(lines.map((l) => l.productExternalCode))];
  if (codes.length === 0) return;
  const found = new Set(
    (
      ctx
        .sql(
          `SELECT external_code FROM products WHERE tenant_id = ? AND origin = 'api' AND external_code IN (${placeholders(codes.length)})`,
        )
        .raw()
        .all(ctx.tenant.id, ...codes) as [string][]
    ).map((r) => r[0]),
  );
  const missing = codes.filter((c) => !found.has(c));
  if (missing.length > 0) {
    throw wmsError.badRequest(DOCUMENT_ENTITY, 'productnotfound', `Product not found: ${missing.join(', ')}`);
  }
}

export const DOCUMENT_COLUMNS = [
  'document_number',
  'document_external_type',
  'reference',
  'observations',
  'document_date',
  'origin_external_code',
  'destination_external_code',
  'delivery_point_external_code',
  'delivery_date',
  'charge',
  'charge_value',
  'carrier',
  'delivery_place',
] as const;

export function documentValues(input: Document): unknown[] {
  return [
    input.documentNumber,
    input.documentExternalType ?? null,
    input.reference ?? null,
    input.observations ?? null,
    input.documentDate ?? null,
    input.originExternalCode ?? null,
    input.destinationExternalCode ?? null,
    input.deliveryPointExternalCode ?? null,
    input.deliveryDate ?? null,
    flag(input.charge),
    input.chargeValue ?? null,
    input.carrier ?? null,
    input.deliveryPlace ?? null,
  ];
}

/** Lines are replaced when the request carries them; left out on update, the stored lines stay. */
export function replaceLines(ctx: TenantContext, documentId: number, input: Document): void {
  if (!input.lines) return;
  ctx.sql('DELETE FROM document_lines WHERE document_id = ?').run(documentId);
  const insert = ctx.sql(
    `INSERT INTO document_lines (document_id, line_number, quantity, product_external_code, lot_code, supplier_lot_code, supplier_code,
       serial_number, external_code, quality_status_code, container_code, categories)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const line of input.lines) {
    insert.run(
      documentId,
      line.lineNumber,
      line.quantity,
      line.productExternalCode,
      line.lotCode ?? null,
      line.supplierLotCode ?? null,
      line.supplierCode ?? null,
      line.serialNumber ?? null,
      line.externalCode ?? null,
      line.qualityStatusCode ?? null,
      line.containerCode ?? null,
      line.categories ? JSON.stringify(line.categories) : null,
    );
  }
}
