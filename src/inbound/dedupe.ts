import { hashCanonical, sha256Hex } from '../lib/crypto.js';
import type { StockRegularizationPayload } from '../wms/webhooks.js';
import type { InboundPayload, WebhookKind } from './kinds.js';

/*
 * Business keys of inbound events, unique per connection for ever (not for a time window).
 * Keys are scoped by kind: the spec makes closingDocumentCode the idempotency key but does not
 * say receptions and shipping orders draw their codes from one sequence, and treating a shipment
 * as a repeat of a reception that happens to share its code would drop it silently.
 */

/** `<kind>:<closingDocumentCode>` for close documents, `<kind>:<sha256>` of the canonical stock regularization. */
export function dedupeKeyOf(kind: WebhookKind, payload: InboundPayload): string {
  if ('closingDocumentCode' in payload) return `${kind}:${payload.closingDocumentCode}`;
  return `${kind}:${hashCanonical(canonicalRegularization(payload))}`;
}

/**
 * The fields that make a stock regularization the same event, normalised so that equal events
 * written differently (time zone offset, absent vs null lot) hash the same.
 */
export function canonicalRegularization(p: StockRegularizationPayload) {
  return {
    productExternalCode: p.productExternalCode,
    lotCode: p.lotCode || null,
    quantity: p.quantity,
    movementTime: new Date(p.movementTime).toISOString(),
    warehouse: p.warehouse || null,
  };
}

/**
 * Rejected deliveries are kept under a key of their raw body: a repeat of the same bad body counts
 * as a duplicate, and a corrected delivery of the same document is a new event, never a repeat.
 */
export function rejectedKeyOf(kind: WebhookKind, rawBody: string): string {
  return `${kind}:rejected:${sha256Hex(rawBody)}`;
}
