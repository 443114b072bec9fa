import type { WebhookKind } from '../../wms/index.js';
import type { EmulatorContext } from '../context.js';
import { getWebhookConfig, urlFor } from './settings.js';
import { getWebhookStyle, styledBody } from './style.js';
import type { WebhookCause } from './view.js';

export interface QueuedWebhook {
  tenantId: string;
  kind: WebhookKind;
  closingDocumentId: number | null;
  body: string;
  cause: WebhookCause;
  originId?: number | null;
  attempt?: number;
  /** Wall-clock ms before which it is not sent (retry delays are real time, not the injected clock). */
  notBefore?: number;
}

/**
 * A request to make, written in the caller's transaction; the dispatcher sends it once the
 * transaction has committed (the caller emits `queued`). Null when the tenant has no URL
 * configured for this kind: nothing is sent.
 */
export function queueWebhook(ctx: EmulatorContext, input: QueuedWebhook): number | null {
  const url = urlFor(getWebhookConfig(ctx, input.tenantId), input.kind);
  if (!url) return null;
  // Written once, in the tenant's style: retries and duplicates repeat these bytes.
  const body =
    input.cause === 'event' || input.cause === 'resend'
      ? styledBody(getWebhookStyle(ctx, input.tenantId), input.kind, input.body)
      : input.body;
  const { lastInsertRowid } = ctx
    .sql(
      `INSERT INTO webhook_log (tenant_id, kind, closing_document_id, url, body, cause, origin_id, attempt, status, not_before, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
    )
    .run(
      input.tenantId,
      input.kind,
      input.closingDocumentId,
      url,
      body,
      input.cause,
      input.originId ?? null,
      input.attempt ?? 1,
      input.notBefore ?? 0,
      ctx.clock.nowMs(),
    );
  return Number(lastInsertRowid);
}
