import type { TenantContext } from '../context.js';
import { type DocumentRow, findDocumentRow } from '../documents/rows.js';
import { setDocumentStatus } from '../documents/status.js';
import { ControlError } from '../errors.js';
import { nextNumber } from '../sequences.js';
import { resolveWarehouse } from '../warehouses/warehouses.js';
import { INBOUND_TYPES } from '../webhooks/routing.js';
import { findReceptionRow } from './rows.js';
import { type ReceptionView, receptionView } from './view.js';

export interface OpenReceptionInput {
  /** External codes of the inbound documents being received together. */
  documents: string[];
  warehouse?: string | undefined;
}

function receivable(ctx: TenantContext, externalCode: string): DocumentRow {
  const doc = findDocumentRow(ctx, ctx.tenant.id, externalCode);
  if (!doc) throw new ControlError(404, 'document_not_found', `Document "${externalCode}" does not exist`);
  if (!INBOUND_TYPES.has(doc.document_type)) {
    throw new ControlError(
      400,
      'not_inbound',
      `Document "${externalCode}" is a ${doc.document_type}: it is shipped, not received`,
    );
  }
  if (doc.status !== 'CREATED' && doc.status !== 'IN_PROGRESS') {
    throw new ControlError(409, 'document_not_receivable', `Document "${externalCode}" is ${doc.status}`);
  }
  const open = ctx
    .sql(
      `SELECT r.code FROM reception_documents rd JOIN receptions r ON r.id = rd.reception_id
       WHERE rd.document_id = ? AND r.status IN ('NEW', 'EXECUTING', 'SUBMITTED')`,
    )
    .get(doc.id) as { code: string } | undefined;
  if (open)
    throw new ControlError(
      409,
      'document_in_reception',
      `Document "${externalCode}" is already in open reception "${open.code}"`,
    );
  return doc;
}

/** A reception (status NEW) for one or more inbound documents, which move to IN_PROGRESS. */
export function openReception(ctx: TenantContext, input: OpenReceptionInput): ReceptionView {
  return ctx.db.transaction(() => {
    if (new Set(input.documents).size !== input.documents.length)
      throw new ControlError(400, 'invalid_request', 'documents: each document once');
    const warehouse = resolveWarehouse(ctx, input.warehouse);
    const documents = input.documents.map((code) => receivable(ctx, code));
    const { code } = nextNumber(ctx, 'REC');
    const now = ctx.clock.nowMs();
    const { lastInsertRowid } = ctx
      .sql(
        "INSERT INTO receptions (tenant_id, code, status, warehouse_id, created_at, updated_at) VALUES (?, ?, 'NEW', ?, ?, ?)",
      )
      .run(ctx.tenant.id, code, warehouse.id, now, now);
    const link = ctx.sql('INSERT INTO reception_documents (reception_id, document_id, position) VALUES (?, ?, ?)');
    documents.forEach((doc, i) => {
      link.run(lastInsertRowid, doc.id, i);
      setDocumentStatus(ctx, doc.id, 'IN_PROGRESS');
    });
    return receptionView(ctx, findReceptionRow(ctx, ctx.tenant.id, code)!);
  })();
}
