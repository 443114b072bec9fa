import type { z } from 'zod';
import type { WebhookKind } from '../../wms/index.js';
import type { EmulatorContext, TenantContext } from '../context.js';
import type { DocumentRow } from '../documents/rows.js';
import { nextNumber } from '../sequences.js';
import { queueWebhook } from '../webhooks/queue.js';
import { CLOSE_WEBHOOK_OF } from '../webhooks/routing.js';

/**
 * Where the closing document's integration (its webhook) stands: pending until the webhook (and
 * its automatic retries) finished; `not_sent` for document types the spec does not send;
 * `not_configured` when the tenant has no URL for its destination.
 */
export type IntegrationStatus = 'pending' | 'succeeded' | 'failed' | 'not_sent' | 'not_configured';

export interface ClosingDocumentRow {
  id: number;
  tenant_id: string;
  code: string;
  reception_id: number | null;
  shipping_order_id: number | null;
  document_id: number;
  webhook_kind: WebhookKind | null;
  payload: string;
  integration_status: IntegrationStatus;
  integration_message: string | null;
}

export interface ClosingDocumentView {
  closingDocumentCode: string;
  documentExternalCode: string;
  webhook: WebhookKind | null;
  integration: { status: IntegrationStatus; message: string | null };
}

export interface CreatedClosingDocument {
  id: number;
  code: string;
  webhookId: number | null;
}

/**
 * The WMS's closing document of one document: its code (`GR…` goods received, `GD…` goods
 * dispatched) is the payload's closingDocumentCode, and the payload is built and checked against
 * the spec schema once, here, so a re-send carries the same code and body.
 */
export function createClosingDocument<S extends z.ZodType>(
  ctx: TenantContext,
  input: {
    series: 'GR' | 'GD';
    document: DocumentRow;
    receptionId?: number;
    shippingOrderId?: number;
    schema: S;
    payload: (closingDocumentCode: string) => z.input<S>;
  },
): CreatedClosingDocument {
  const { code } = nextNumber(ctx, input.series);
  const body = JSON.stringify(input.schema.parse(input.payload(code)));
  const kind = CLOSE_WEBHOOK_OF[input.document.document_type] ?? null;
  const { lastInsertRowid } = ctx
    .sql(
      `INSERT INTO closing_documents (tenant_id, code, reception_id, shipping_order_id, document_id, webhook_kind, payload, integration_status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      ctx.tenant.id,
      code,
      input.receptionId ?? null,
      input.shippingOrderId ?? null,
      input.document.id,
      kind,
      body,
      kind ? 'pending' : 'not_sent',
      ctx.clock.nowMs(),
    );
  const id = Number(lastInsertRowid);
  const webhookId = kind
    ? queueWebhook(ctx, { tenantId: ctx.tenant.id, kind, closingDocumentId: id, body, cause: 'event' })
    : null;
  if (kind && webhookId === null) setIntegration(ctx, id, 'not_configured', null);
  return { id, code, webhookId };
}

export function setIntegration(
  ctx: EmulatorContext,
  closingDocumentId: number,
  status: IntegrationStatus,
  message: string | null,
): void {
  ctx
    .sql('UPDATE closing_documents SET integration_status = ?, integration_message = ? WHERE id = ?')
    .run(status, message, closingDocumentId);
}

export function closingDocumentRow(ctx: EmulatorContext, id: number): ClosingDocumentRow | undefined {
  return ctx.sql('SELECT * FROM closing_documents WHERE id = ?').get(id) as ClosingDocumentRow | undefined;
}

export function closingDocumentViews(
  ctx: EmulatorContext,
  column: 'reception_id' | 'shipping_order_id',
  ownerId: number,
): ClosingDocumentView[] {
  const rows = ctx
    .sql(
      `SELECT c.code, c.webhook_kind, c.integration_status, c.integration_message, d.external_code
       FROM closing_documents c JOIN documents d ON d.id = c.document_id WHERE c.${column} = ? ORDER BY c.id`,
    )
    .all(ownerId) as {
    code: string;
    webhook_kind: WebhookKind | null;
    integration_status: IntegrationStatus;
    integration_message: string | null;
    external_code: string;
  }[];
  return rows.map((r) => ({
    closingDocumentCode: r.code,
    documentExternalCode: r.external_code,
    webhook: r.webhook_kind,
    integration: { status: r.integration_status, message: r.integration_message },
  }));
}
