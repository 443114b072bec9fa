import type { DocumentStatus } from '../../wms/index.js';
import type { EmulatorContext } from '../context.js';

/**
 * Document statuses (spec gap closed in ARCHITECTURE.md): created through the API as CREATED;
 * IN_PROGRESS once the warehouse starts receiving or picking; EXECUTED when its reception closes
 * or its shipping order is fully dispatched; CANCELLED through endpoint 12. Updates and cancels
 * are allowed only from these statuses (otherwise 409).
 */
export const STATUS_ON_CREATE: DocumentStatus = 'CREATED';
export const EDITABLE_STATUSES: ReadonlySet<DocumentStatus> = new Set(['DRAFT', 'CREATED']);

/** For warehouse operations: move a document on (IN_PROGRESS, EXECUTED). */
export function setDocumentStatus(ctx: EmulatorContext, documentId: number, status: DocumentStatus): void {
  ctx.sql('UPDATE documents SET status = ?, updated_at = ? WHERE id = ?').run(status, ctx.clock.nowMs(), documentId);
}
