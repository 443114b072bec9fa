import { closeReceptionPayloadSchema } from '../../wms/index.js';
import type { ActionResult } from '../action.js';
import { createClosingDocument } from '../closing/closing-documents.js';
import type { TenantContext } from '../context.js';
import { setDocumentStatus } from '../documents/status.js';
import { ControlError } from '../errors.js';
import { ensureLot } from '../stock/lot-rules.js';
import { addStock } from '../stock/store.js';
import { getWebhookConfig } from '../webhooks/settings.js';
import { closeReceptionPayload, type ReceivedLine } from './payload.js';
import { mustFindReception, receptionDocuments, setReceptionStatus } from './rows.js';
import { settleReception } from './status.js';
import { type ReceptionView, receptionView } from './view.js';

/** EXECUTING → SUBMITTED: the operator has finished counting. */
export function submitReception(ctx: TenantContext, receptionCode: string): ReceptionView {
  return ctx.db.transaction(() => {
    const reception = mustFindReception(ctx, receptionCode);
    if (reception.status !== 'EXECUTING') {
      throw new ControlError(
        409,
        'reception_not_executing',
        `Reception "${receptionCode}" is ${reception.status}; only an EXECUTING reception is submitted`,
      );
    }
    setReceptionStatus(ctx, reception.id, 'SUBMITTED');
    return receptionView(ctx, mustFindReception(ctx, receptionCode));
  })();
}

/**
 * Closes a reception (from NEW, EXECUTING or SUBMITTED): the received quantities of known products
 * are added to stock at their locations, its documents become EXECUTED, and each document gets a
 * closing document whose close webhook is queued (spec: "Closing a reception triggers the close
 * reception webhook"). The reception stays CLOSING until those webhooks are done, then CLOSED.
 */
export function closeReception(
  ctx: TenantContext,
  receptionCode: string,
  input: { observations?: string | undefined } = {},
): ActionResult<ReceptionView> {
  const outcome = ctx.db.transaction(() => {
    const reception = mustFindReception(ctx, receptionCode);
    if (reception.status === 'CLOSING' || reception.status === 'CLOSED') {
      throw new ControlError(409, 'reception_closed', `Reception "${receptionCode}" is already ${reception.status}`);
    }
    const now = ctx.clock.nowMs();
    const observations = input.observations ?? reception.observations;
    ctx
      .sql("UPDATE receptions SET status = 'CLOSING', observations = ?, closed_at = ?, updated_at = ? WHERE id = ?")
      .run(observations, now, now, reception.id);
    const received = () =>
      ctx
        .sql(
          `SELECT l.*, p.origin, coalesce(l.expiration_date, k.expiration_date) AS expiration_date FROM reception_lines l
           LEFT JOIN products p ON p.id = l.product_id LEFT JOIN product_lots k ON k.product_id = l.product_id AND k.code = l.lot_code
           WHERE l.reception_id = ? ORDER BY l.id`,
        )
        .all(reception.id) as ReceivedLine[];
    for (const line of received()) {
      if (line.product_id === null) continue;
      ensureLot(ctx, line.product_id, line.lot_code, line.expiration_date);
      addStock(
        ctx,
        {
          productId: line.product_id,
          lotCode: line.lot_code,
          warehouseId: reception.warehouse_id,
          location: line.location,
        },
        line.quantity,
        line.in_containers === 1,
      );
    }
    // Read again once the lots exist: a line without expiry carries its lot's.
    const lines = received();
    const documents = receptionDocuments(ctx, reception.id);
    const company = getWebhookConfig(ctx, ctx.tenant.id).company ?? ctx.tenant.id;
    const webhookIds: number[] = [];
    for (const document of documents) {
      setDocumentStatus(ctx, document.id, 'EXECUTED');
      const closing = createClosingDocument(ctx, {
        series: 'GR',
        document,
        receptionId: reception.id,
        schema: closeReceptionPayloadSchema,
        payload: (closingDocumentCode) =>
          closeReceptionPayload({
            closingDocumentCode,
            document,
            documents,
            lines,
            company,
            receptionDate: ctx.clock.now().toISOString().slice(0, 10),
            observations,
          }),
      });
      if (closing.webhookId !== null) webhookIds.push(closing.webhookId);
    }
    settleReception(ctx, reception.id);
    return { result: receptionView(ctx, mustFindReception(ctx, receptionCode)), webhookIds };
  })();
  if (outcome.webhookIds.length > 0) ctx.events.emit('queued');
  return outcome;
}
