import type { TenantContext } from '../context.js';
import { ControlError } from '../errors.js';
import { findAnyProductRow } from '../products/rows.js';
import { checkTracking } from '../stock/lot-rules.js';
import { DEFAULT_LOCATION } from '../warehouses/warehouses.js';
import { mustFindReception, receptionDocuments, setReceptionStatus } from './rows.js';
import { type ReceptionView, receptionView } from './view.js';

export interface ReceiveLineInput {
  productExternalCode: string;
  quantity: number;
  lotCode?: string | null | undefined;
  expirationDate?: string | null | undefined;
  serialNumbers?: string[] | null | undefined;
  /** Where the goods are put away (default STOCK). */
  location?: string | undefined;
  /** Counted as containers rather than loose units. */
  inContainers?: boolean | undefined;
  /** Which of the reception's documents the line belongs to (default: the first that orders the product, else the first). */
  documentExternalCode?: string | undefined;
}

/**
 * Registers goods received: any quantity (more or less than ordered), and products the tenant
 * does not know (kept apart: never stocked, shown in nonExistingProductDifferences). Known
 * products must carry their lot, expiry and serial numbers. NEW → EXECUTING.
 */
export function receiveLine(ctx: TenantContext, receptionCode: string, input: ReceiveLineInput): ReceptionView {
  return ctx.db.transaction(() => {
    const reception = mustFindReception(ctx, receptionCode);
    if (reception.status !== 'NEW' && reception.status !== 'EXECUTING') {
      throw new ControlError(
        409,
        'reception_not_open',
        `Reception "${receptionCode}" is ${reception.status}: no more lines can be received`,
      );
    }
    const documents = receptionDocuments(ctx, reception.id);
    let document = documents[0]!;
    if (input.documentExternalCode) {
      const named = documents.find((d) => d.external_code === input.documentExternalCode);
      if (!named)
        throw new ControlError(
          400,
          'document_not_in_reception',
          `Document "${input.documentExternalCode}" is not in reception "${receptionCode}"`,
        );
      document = named;
    } else {
      const ordering = ctx
        .sql(
          `SELECT document_id FROM document_lines WHERE product_external_code = ? AND document_id IN (${documents.map(() => '?').join(', ')}) LIMIT 1`,
        )
        .get(input.productExternalCode, ...documents.map((d) => d.id)) as { document_id: number } | undefined;
      if (ordering) document = documents.find((d) => d.id === ordering.document_id)!;
    }
    const product = findAnyProductRow(ctx, ctx.tenant.id, input.productExternalCode);
    if (product) checkTracking(ctx, product, input, { needsExpiry: true });
    ctx
      .sql(
        `INSERT INTO reception_lines (reception_id, document_id, product_external_code, product_id, lot_code, expiration_date, serial_numbers,
           quantity, location, in_containers, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        reception.id,
        document.id,
        input.productExternalCode,
        product?.id ?? null,
        input.lotCode || null,
        input.expirationDate ?? null,
        input.serialNumbers && input.serialNumbers.length > 0 ? JSON.stringify(input.serialNumbers) : null,
        input.quantity,
        input.location ?? DEFAULT_LOCATION,
        input.inContainers ? 1 : 0,
        ctx.clock.nowMs(),
      );
    if (reception.status === 'NEW') setReceptionStatus(ctx, reception.id, 'EXECUTING');
    return receptionView(ctx, mustFindReception(ctx, receptionCode));
  })();
}
