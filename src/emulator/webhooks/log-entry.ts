import type { WebhookKind } from '../../wms/index.js';

// The delivery log as the control API and the `delivery` event show it: types only, imported by
// events.ts without the log's code (and its context), so the emulator's types form no cycle.

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
/** Why a request was made: the event itself, an automatic retry, a duplicate, or an operator's re-send. */
export type DeliveryCause = 'event' | 'retry' | 'duplicate' | 'resend';

/** One row of the delivery log, as the control API and the `delivery` event show it. */
export interface DeliveryView {
  id: number;
  tenant: string;
  kind: WebhookKind;
  closingDocumentCode: string | null;
  cause: DeliveryCause;
  /** The delivery this one repeats (retry, duplicate, re-send). */
  originId: number | null;
  attempt: number;
  status: DeliveryStatus;
  /** spec: failed close documents can be re-sent; "a failed stock regularization ... cannot be re-sent". */
  resendable: boolean;
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: unknown };
  response: { status: number; body: unknown } | null;
  /** Why it failed: `HTTP 500`, `success:false: <message>`, `timeout after N ms`, a network error. */
  error: string | null;
  durationMs: number | null;
  createdAt: string;
  finishedAt: string | null;
}
