import { sha256Hex } from '../lib/crypto.js';
import type { CanonicalStockRegularization } from '../wms/webhooks-tolerant.js';
import type { WebhookKind } from './kinds.js';

/*
 * Business keys of inbound events, unique per connection for ever (not for a time window).
 * Keys are scoped by kind: the spec makes closingDocumentCode the idempotency key but does not
 * say receptions and shipping orders draw their codes from one sequence, and treating a shipment
 * as a repeat of a reception that happens to share its code would drop it silently.
 * Close documents: `<kind>:<closingDocumentCode>` (reading.ts).
 */

/**
 * `stock-regularization:<sha256>` of the fields that make a stock regularization the same event,
 * as the tolerant reading normalised them: equal events written differently (time zone offset,
 * absent vs null vs "" lot, "12.5" vs 12.5) hash the same. Events stored before tolerant reading
 * were keyed on the same object, so their repeats still meet them.
 */
export function regularizationKeyOf(p: CanonicalStockRegularization): string {
  // Members in sorted order and none undefined: exactly lib/crypto's canonicalJson of the same
  // object (what earlier versions hashed), without sorting on the receiver's hot path.
  const canonical = JSON.stringify({
    lotCode: p.lotCode,
    movementTime: p.movementTime,
    productExternalCode: p.productExternalCode,
    quantity: p.quantity,
    warehouse: p.warehouse,
  });
  return `stock-regularization:${sha256Hex(canonical)}`;
}

/**
 * Rejected webhooks are kept under a key of their raw body: a repeat of the same bad body counts
 * as a duplicate, and a corrected webhook of the same document is a new event, never a repeat.
 */
export function rejectedKeyOf(kind: WebhookKind, rawBody: string): string {
  return `${kind}:rejected:${sha256Hex(rawBody)}`;
}
