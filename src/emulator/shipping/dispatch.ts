import { closeShippingOrderPayloadSchema } from '../../wms/index.js';
import type { ActionResult } from '../action.js';
import { createClosingDocument } from '../closing/closing-documents.js';
import type { TenantContext } from '../context.js';
import type { DocumentRow } from '../documents/rows.js';
import { setDocumentStatus } from '../documents/status.js';
import { ControlError } from '../errors.js';
import { EPSILON, round } from '../stock/quantity.js';
import { takeFromRow } from '../stock/store.js';
import { getWebhookConfig } from '../webhooks/settings.js';
import { closeShippingOrderPayload } from './payload.js';
import { mustFindShippingOrder, type PickRow, pickRows, type ShippingOrderRow } from './rows.js';
import { type ShippingOrderView, shippingOrderView } from './view.js';

/** Dispatches part of a pick: its units leave the stock and its reservation is released. */
export function dispatchFromPick(ctx: TenantContext, pick: PickRow, quantity: number): void {
  ctx.sql('UPDATE stock SET reserved = max(0, round(reserved - ?, 6)) WHERE id = ?').run(quantity, pick.stock_id);
  takeFromRow(ctx, pick.stock_id, quantity);
  ctx.sql('UPDATE shipping_picks SET dispatched = round(dispatched + ?, 6) WHERE id = ?').run(quantity, pick.id);
}

/**
 * Once every picked unit has left, the order is DISPATCHED, its document EXECUTED, and the close
 * shipping order webhook is queued (spec: "Dispatching a shipping order fully triggers the close
 * shipping order webhook"). Returns the webhook id, if one was queued.
 */
export function completeIfDispatched(
  ctx: TenantContext,
  order: ShippingOrderRow,
  observations: string | null,
): { complete: boolean; webhookId: number | null } {
  const picks = pickRows(ctx, order.id);
  if (picks.length === 0 || picks.some((p) => p.quantity - p.dispatched > EPSILON))
    return { complete: false, webhookId: null };
  const now = ctx.clock.nowMs();
  ctx
    .sql(
      "UPDATE shipping_orders SET status = 'DISPATCHED', observations = ?, dispatched_at = ?, updated_at = ? WHERE id = ?",
    )
    .run(observations, now, now, order.id);
  const document = ctx.sql('SELECT * FROM documents WHERE id = ?').get(order.document_id) as DocumentRow;
  setDocumentStatus(ctx, document.id, 'EXECUTED');
  const company = getWebhookConfig(ctx, ctx.tenant.id).company ?? ctx.tenant.id;
  const closing = createClosingDocument(ctx, {
    series: 'GD',
    document,
    shippingOrderId: order.id,
    schema: closeShippingOrderPayloadSchema,
    payload: (closingDocumentCode) =>
      closeShippingOrderPayload(ctx, {
        closingDocumentCode,
        document,
        shippingOrderId: order.id,
        picks,
        company,
        observations,
      }),
  });
  return { complete: true, webhookId: closing.webhookId };
}

/** Dispatches everything picked and not dispatched yet: the order is then fully dispatched. */
export function dispatchShippingOrder(
  ctx: TenantContext,
  code: string,
  input: { observations?: string | undefined } = {},
): ActionResult<ShippingOrderView> {
  const outcome = ctx.db.transaction(() => {
    const order = mustFindShippingOrder(ctx, code);
    if (order.status === 'NEW')
      throw new ControlError(409, 'nothing_picked', `Shipping order "${code}" has nothing picked to dispatch`);
    if (order.status !== 'PICKING' && order.status !== 'PACKED')
      throw new ControlError(409, 'shipping_order_closed', `Shipping order "${code}" is ${order.status}`);
    for (const pick of pickRows(ctx, order.id)) {
      const left = round(pick.quantity - pick.dispatched);
      if (left > EPSILON) dispatchFromPick(ctx, pick, left);
    }
    const { webhookId } = completeIfDispatched(ctx, order, input.observations ?? order.observations);
    return {
      result: shippingOrderView(ctx, mustFindShippingOrder(ctx, code)),
      webhookIds: webhookId === null ? [] : [webhookId],
    };
  })();
  if (outcome.webhookIds.length > 0) ctx.events.emit('queued');
  return outcome;
}

/** Releases the reservations of an order nothing of which has left yet; its document is CREATED again. */
export function cancelShippingOrder(ctx: TenantContext, code: string): ShippingOrderView {
  return ctx.db.transaction(() => {
    const order = mustFindShippingOrder(ctx, code);
    if (order.status !== 'NEW' && order.status !== 'PICKING' && order.status !== 'PACKED') {
      throw new ControlError(409, 'shipping_order_closed', `Shipping order "${code}" is ${order.status}`);
    }
    const picks = pickRows(ctx, order.id);
    if (picks.some((p) => p.dispatched > 0))
      throw new ControlError(409, 'partially_dispatched', `Shipping order "${code}" has dispatched goods`);
    for (const pick of picks)
      ctx
        .sql('UPDATE stock SET reserved = max(0, round(reserved - ?, 6)) WHERE id = ?')
        .run(pick.quantity, pick.stock_id);
    ctx
      .sql("UPDATE shipping_orders SET status = 'CANCELLED', updated_at = ? WHERE id = ?")
      .run(ctx.clock.nowMs(), order.id);
    setDocumentStatus(ctx, order.document_id, 'CREATED');
    return shippingOrderView(ctx, mustFindShippingOrder(ctx, code));
  })();
}
