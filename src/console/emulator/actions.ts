import type { ControlCall, WebhookLogEntry } from './control.js';

/** What the panel sends to the emulator; the forms' fields, parsed. */
export interface ReceptionInput {
  document: string;
  lines: { productExternalCode: string; quantity: number; lotCode?: string; expirationDate?: string }[];
}
export interface RegularizationInput {
  productExternalCode: string;
  quantity: number;
  lotCode?: string;
  expirationDate?: string;
}

export interface ActionResult {
  /** One line for the operator: what the warehouse did. */
  summary: string;
  /** The webhooks the action queued, to watch arrive. */
  webhookIds: number[];
}

/** A warehouse operator receives a document: opens a reception, registers the lines, closes it. */
export async function receive(call: ControlCall, input: ReceptionInput): Promise<ActionResult> {
  const { receptionCode } = await call<{ receptionCode: string }>('POST', '/receptions', {
    documents: [input.document],
  });
  for (const line of input.lines) await call('POST', `/receptions/${receptionCode}/lines`, line);
  const closed = await call<{ webhookIds: number[] }>('POST', `/receptions/${receptionCode}/close`, {
    observations: 'Received from the wms-sync console',
  });
  return {
    summary: `Reception ${receptionCode} of ${input.document} closed with ${input.lines.length} line(s)`,
    webhookIds: closed.webhookIds,
  };
}

/** A warehouse operator ships a document: opens a shipping order, picks everything, packs one box, dispatches. */
export async function ship(call: ControlCall, document: string): Promise<ActionResult> {
  const { shippingOrderCode } = await call<{ shippingOrderCode: string }>('POST', '/shipping-orders', { document });
  await call('POST', `/shipping-orders/${shippingOrderCode}/pick`);
  await call('POST', `/shipping-orders/${shippingOrderCode}/pack`);
  const dispatched = await call<{ webhookIds: number[] }>('POST', `/shipping-orders/${shippingOrderCode}/dispatch`);
  return {
    summary: `Shipping order ${shippingOrderCode} of ${document} picked, packed and dispatched`,
    webhookIds: dispatched.webhookIds,
  };
}

/** A stock count found more (positive) or less (negative) of a product and lot. */
export async function regularize(call: ControlCall, input: RegularizationInput): Promise<ActionResult> {
  const done = await call<{ webhookIds: number[]; warehouse: string }>('POST', '/stock/regularizations', input);
  const sign = input.quantity > 0 ? '+' : '';
  return {
    summary: `Stock of ${input.productExternalCode}${input.lotCode ? ` lot ${input.lotCode}` : ''} ${sign}${input.quantity} in ${done.warehouse}`,
    webhookIds: done.webhookIds,
  };
}

/** The webhooks of these ids as the emulator logged them (sent, answered, failed). */
export async function webhookIds(call: ControlCall, ids: readonly number[]): Promise<WebhookLogEntry[]> {
  return Promise.all(ids.map((id) => call<WebhookLogEntry>('GET', `/webhook-log/${id}`)));
}
