import type { WebhookKind } from '../../wms/index.js';

// The webhook log as the control API and the `webhook` event show it: types only, imported by
// events.ts without the log's code (and its context), so the emulator's types form no cycle.

export type WebhookLogStatus = 'pending' | 'succeeded' | 'failed';
/** Why a request was made: the event itself, an automatic retry, a duplicate, or an operator's re-send. */
export type WebhookCause = 'event' | 'retry' | 'duplicate' | 'resend';

/** One row of the webhook log, as the control API and the `webhook` event show it. */
export interface WebhookLogEntry {
  id: number;
  tenant: string;
  kind: WebhookKind;
  closingDocumentCode: string | null;
  cause: WebhookCause;
  /** The webhook this one repeats (retry, duplicate, re-send). */
  originId: number | null;
  attempt: number;
  status: WebhookLogStatus;
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
