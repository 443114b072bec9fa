import { closingDocumentRow, setIntegration } from '../closing/closing-documents.js';
import type { TenantContext } from '../context.js';
import { ControlError } from '../errors.js';
import { hasCredentials } from './dispatcher.js';
import { queueWebhook } from './queue.js';
import { getWebhookConfig } from './settings.js';
import { type WebhookLogEntry, webhookLogEntry, webhookLogRow } from './view.js';

/**
 * The operator's re-send of a failed close document: the same closingDocumentCode and body, to
 * the URL configured now, with the credentials configured now. Stock regularizations cannot be
 * re-sent (spec: "A failed stock regularization webhook is not shown to the operator and cannot
 * be re-sent"); nor can a webhook that did not fail.
 */
export function resendWebhook(ctx: TenantContext, id: number): WebhookLogEntry {
  const view = ctx.db.transaction(() => {
    const row = webhookLogRow(ctx, id);
    if (!row || row.tenant_id !== ctx.tenant.id)
      throw new ControlError(404, 'webhook_not_found', `Webhook ${id} does not exist in tenant "${ctx.tenant.id}"`);
    if (row.kind === 'stock-regularization' || row.closing_document_id === null) {
      throw new ControlError(
        409,
        'not_resendable',
        'A failed stock regularization webhook cannot be re-sent; reconcile stock with endpoint 7',
      );
    }
    if (row.status !== 'failed')
      throw new ControlError(
        409,
        'not_failed',
        `Webhook ${id} is ${row.status}; only failed close documents are re-sent`,
      );
    const closing = closingDocumentRow(ctx, row.closing_document_id)!;
    const queued = queueWebhook(ctx, {
      tenantId: ctx.tenant.id,
      kind: row.kind,
      closingDocumentId: closing.id,
      body: closing.payload,
      cause: 'resend',
      originId: row.id,
    });
    if (queued === null)
      throw new ControlError(409, 'webhook_not_configured', `No URL is configured for ${row.kind} webhooks`);
    setIntegration(ctx, closing.id, 'pending', null);
    return webhookLogEntry(webhookLogRow(ctx, queued)!, hasCredentials(getWebhookConfig(ctx, ctx.tenant.id)));
  })();
  ctx.events.emit('queued');
  return view;
}
