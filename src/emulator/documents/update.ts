import type { Document, DocumentCancel, Result } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import { DOCUMENT_ENTITY, type DocumentRow, documentDtos, findDocumentRow } from './rows.js';
import { EDITABLE_STATUSES, setDocumentStatus } from './status.js';
import { DOCUMENT_COLUMNS, documentValues, replaceLines, validateLines } from './write.js';

/**
 * Endpoint 10, found by externalCode (unknown: 400 `idnotfound`). Only in DRAFT or CREATED
 * (otherwise 409); the type cannot change (400), since the WMS numbers documents per type.
 */
export function updateDocument(ctx: TenantContext, input: Document): Document {
  return ctx.db.transaction(() => {
    const row = findDocumentRow(ctx, ctx.tenant.id, input.externalCode);
    if (!row)
      throw wmsError.badRequest(DOCUMENT_ENTITY, 'idnotfound', `Document "${input.externalCode}" does not exist`);
    if (!EDITABLE_STATUSES.has(row.status)) {
      throw wmsError.conflict(
        DOCUMENT_ENTITY,
        'documentnoteditable',
        `Document "${input.externalCode}" is ${row.status} and can no longer be updated`,
      );
    }
    if (row.document_type !== input.documentType) {
      throw wmsError.badRequest(
        DOCUMENT_ENTITY,
        'documenttypechange',
        `Document "${input.externalCode}" is a ${row.document_type}; its type cannot change`,
      );
    }
    validateLines(ctx, input);
    ctx
      .sql(`UPDATE documents SET ${DOCUMENT_COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`)
      .run(...documentValues(input), ctx.clock.nowMs(), row.id);
    replaceLines(ctx, row.id, input);
    return documentDtos(ctx, [findDocumentRow(ctx, ctx.tenant.id, input.externalCode) as DocumentRow])[0]!;
  })();
}

/**
 * Endpoint 12: the document with this externalCode and type (else 404). From DRAFT or CREATED
 * it becomes CANCELLED; cancelling a cancelled document again succeeds (retries are safe);
 * any other status is a 409.
 */
export function cancelDocument(ctx: TenantContext, input: DocumentCancel): Result {
  return ctx.db.transaction((): Result => {
    const row = findDocumentRow(ctx, ctx.tenant.id, input.externalCode);
    if (!row || row.document_type !== input.documentType) {
      throw wmsError.notFound(
        DOCUMENT_ENTITY,
        `Document "${input.externalCode}" of type ${input.documentType} not found`,
      );
    }
    if (row.status === 'CANCELLED') return { success: true, message: 'Document already cancelled' };
    if (!EDITABLE_STATUSES.has(row.status)) {
      throw wmsError.conflict(
        DOCUMENT_ENTITY,
        'documentnotcancellable',
        `Document "${input.externalCode}" is ${row.status} and can no longer be cancelled`,
      );
    }
    setDocumentStatus(ctx, row.id, 'CANCELLED');
    return { success: true, message: 'Document cancelled' };
  })();
}

/** Endpoint 11: 404 "document not found". */
export function getDocument(ctx: TenantContext, externalCode: string): Document {
  const row = findDocumentRow(ctx, ctx.tenant.id, externalCode);
  if (!row) throw wmsError.notFound(DOCUMENT_ENTITY, `Document "${externalCode}" not found`);
  return documentDtos(ctx, [row])[0]!;
}
