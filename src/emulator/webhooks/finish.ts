import { closingDocumentRow, setIntegration } from '../closing/closing-documents.js';
import type { EmulatorContext } from '../context.js';
import { settleReception } from '../receptions/status.js';
import { queueWebhook } from './queue.js';
import { judge, type SendResult } from './send.js';
import type { WebhookConfig } from './settings.js';
import type { WebhookLogRow } from './view.js';

/**
 * Records one finished request and what follows from it, in one transaction: the closing
 * document's integration (succeeded; failed with the receiver's message, shown to the operator;
 * or still pending while an automatic retry is queued), the reception leaving CLOSING, and the
 * duplicate webhooks asked for. Stock regularizations are never retried (spec: a failed one
 * "cannot be re-sent"); a receiver's `success:false` is not retried either: it is an answer.
 */
export function recordAttempt(
  ctx: EmulatorContext,
  row: WebhookLogRow,
  result: SendResult,
  config: WebhookConfig,
): boolean {
  const verdict = judge(result);
  const updated = ctx
    .sql(
      `UPDATE webhook_log SET status = ?, response_status = ?, response_body = ?, error = ?, duration_ms = ?, finished_at = ?
       WHERE id = ? AND status = 'pending'`,
    )
    .run(
      verdict.ok ? 'succeeded' : 'failed',
      result.status,
      result.body,
      verdict.error,
      result.durationMs,
      ctx.clock.nowMs(),
      row.id,
    );
  if (updated.changes === 0) return false; // reset or restored meanwhile
  const follow = {
    tenantId: row.tenant_id,
    kind: row.kind,
    closingDocumentId: row.closing_document_id,
    body: row.body,
  };
  const origin = row.origin_id ?? row.id;
  if (row.cause !== 'duplicate' && row.closing_document_id !== null) {
    const closing = closingDocumentRow(ctx, row.closing_document_id);
    if (verdict.ok) setIntegration(ctx, row.closing_document_id, 'succeeded', null);
    else {
      const retry =
        !verdict.rejected && row.attempt <= config.retries
          ? queueWebhook(ctx, {
              ...follow,
              cause: 'retry',
              originId: origin,
              attempt: row.attempt + 1,
              notBefore: Date.now() + config.retryDelayMs,
            })
          : null;
      if (retry === null) setIntegration(ctx, row.closing_document_id, 'failed', verdict.message);
    }
    if (closing?.reception_id) settleReception(ctx, closing.reception_id);
  }
  if (verdict.ok && row.cause !== 'duplicate') {
    for (let i = 0; i < config.duplicates; i++)
      queueWebhook(ctx, { ...follow, cause: 'duplicate', originId: row.id, attempt: row.attempt });
  }
  return true;
}
