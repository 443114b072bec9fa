import { sha256Hex } from '../lib/crypto.js';
import { mayHoldNul, NUL_MESSAGE, nulPath } from '../lib/nul.js';
import { readWebhookPayload, type CanonicalPayload, type FieldProblem } from '../wms/webhooks-tolerant.js';
import { regularizationKeyOf } from './dedupe.js';
import type { WebhookKind } from './kinds.js';

export type { CanonicalPayload, FieldProblem };

/**
 * What the service makes of a payload's text (a delivery, a stored event, an operator's
 * correction): one JSON.parse, the tolerant reading of src/wms, and the service's own limit
 * (Postgres cannot store U+0000). The receiver, the processors and the repair commands all read
 * through here, so they agree on what is usable.
 */
export type DeliveryReading =
  | { json: false; error: string }
  | {
      json: true;
      parsed: unknown;
      /** Set only when there is no problem: what processing applies. */
      canonical: CanonicalPayload | undefined;
      problems: FieldProblem[];
      /** Close documents: the idempotency key, when usable (a close document without one is refused). */
      closingDocumentCode: string | undefined;
      /** Unique per connection for ever (docs/webhooks.md, "Deduplication"); undefined when the delivery is refused. */
      dedupeKey: string | undefined;
      /** What an operator looks the event up by: closingDocumentCode, or the regularization's product. */
      businessCode: string | null;
    };

export function readDelivery(kind: WebhookKind, text: string): DeliveryReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { json: false, error: (err as Error).message };
  }
  const reading = readWebhookPayload(kind, parsed);
  let { value: canonical, problems, closingDocumentCode } = reading;
  if (mayHoldNul(text)) {
    const path = canonical ? nulPath(canonical) : closingDocumentCode?.includes('\u0000') ? 'closingDocumentCode' : undefined;
    if (path !== undefined) {
      canonical = undefined;
      problems = [...problems, { path, message: NUL_MESSAGE }];
      if (path === 'closingDocumentCode') closingDocumentCode = undefined;
    }
  }
  if (kind !== 'stock-regularization') {
    return { json: true, parsed, canonical, problems, closingDocumentCode, dedupeKey: closingDocumentCode === undefined ? undefined : `${kind}:${closingDocumentCode}`, businessCode: closingDocumentCode ?? null };
  }
  // A readable regularization is keyed on what it says (so repeats written differently are one
  // event); an unreadable one on its bytes, the only identity it has.
  const dedupeKey = canonical && 'productExternalCode' in canonical ? regularizationKeyOf(canonical) : `${kind}:raw:${sha256Hex(text)}`;
  return { json: true, parsed, canonical, problems, closingDocumentCode: undefined, dedupeKey, businessCode: productOf(parsed) };
}

function productOf(parsed: unknown): string | null {
  const code = parsed !== null && typeof parsed === 'object' ? (parsed as { productExternalCode?: unknown }).productExternalCode : undefined;
  return typeof code === 'string' && code.trim() !== '' && !code.includes('\u0000') ? code : null;
}

/** One line naming every problem, `lines[0].quantity: expected a number…; movementTime: …`. */
export function problemsMessage(problems: readonly FieldProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('; ');
}
