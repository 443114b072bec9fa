import type { Document } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { nextDocumentNumber } from './numbering.js';
import { type DocumentRow, documentDtos, findDocumentRow } from './rows.js';
import { STATUS_ON_CREATE } from './status.js';
import { DOCUMENT_COLUMNS, documentValues, replaceLines, validateLines } from './write.js';

/**
 * Endpoint 9. spec: "Endpoint 9 uses externalCode as idempotency key": a repeat (even a
 * concurrent one) answers the document already stored, unchanged, and never creates a second.
 */
export function createDocument(ctx: TenantContext, input: Document): { document: Document; created: boolean } {
  return ctx.db.transaction(() => {
    const existing = findDocumentRow(ctx, ctx.tenant.id, input.externalCode);
    if (existing) return { document: documentDtos(ctx, [existing])[0]!, created: false };
    validateLines(ctx, input);
    const { series, year, number, code } = nextDocumentNumber(ctx, input.documentType);
    const now = ctx.clock.nowMs();
    const inserted = ctx
      .sql(
        `INSERT INTO documents (tenant_id, external_code, document_type, status, year, series, number, code, ${DOCUMENT_COLUMNS.join(', ')},
           created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ${DOCUMENT_COLUMNS.map(() => '?').join(', ')}, ?, ?)
         ON CONFLICT (tenant_id, external_code) DO NOTHING`,
      )
      .run(
        ctx.tenant.id,
        input.externalCode,
        input.documentType,
        STATUS_ON_CREATE,
        year,
        series,
        number,
        code,
        ...documentValues(input),
        now,
        now,
      );
    if (inserted.changes === 1) replaceLines(ctx, Number(inserted.lastInsertRowid), input);
    const row = findDocumentRow(ctx, ctx.tenant.id, input.externalCode) as DocumentRow;
    return { document: documentDtos(ctx, [row])[0]!, created: inserted.changes === 1 };
  })();
}
