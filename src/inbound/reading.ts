import { sha256Hex } from '../lib/crypto.js';
import { mayNeedPayloadCheck, NUL_MESSAGE, payloadIssue } from '../lib/nul.js';
import { type CanonicalPayload, type FieldProblem, readWebhookPayload } from '../wms/webhooks-tolerant.js';
import { regularizationKeyOf } from './dedupe.js';
import type { WebhookKind } from './kinds.js';

export type { CanonicalPayload, FieldProblem };

/**
 * What the service makes of a payload's text (a webhook received, a stored event, an operator's
 * correction): one JSON.parse, the tolerant reading of src/wms, and the service's own limit
 * (Postgres cannot store U+0000). The receiver, the processors and the repair commands all read
 * through here, so they agree on what is usable.
 */
export type PayloadReading =
  | { json: false; error: string }
  | {
      json: true;
      parsed: unknown;
      /** Set only when there is no problem: what processing applies. */
      canonical: CanonicalPayload | undefined;
      problems: FieldProblem[];
      /** Close documents: the idempotency key, when usable (a close document without one is refused). */
      closingDocumentCode: string | undefined;
      /** Unique per connection for ever (docs/webhooks.md, "Deduplication"); undefined when the webhook is refused. */
      dedupeKey: string | undefined;
      /** What an operator looks the event up by: closingDocumentCode, or the regularization's product. */
      businessCode: string | null;
      /**
       * Close documents only: nesting beyond the depth limit anywhere in the body, refused with 400
       * before anything else. A regularization is never refused for it (the WMS never re-sends one):
       * only its own fields are read and checked. U+0000 in a field that is read quarantines.
       */
      unstorable?: FieldProblem;
    };

export function readPayload(kind: WebhookKind, text: string): PayloadReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { json: false, error: (err as Error).message };
  }
  const mayNeedCheck = mayNeedPayloadCheck(text);
  if (kind !== 'stock-regularization') {
    const unstorable = mayNeedCheck ? payloadIssue(parsed, { nul: false }) : undefined;
    if (unstorable)
      return {
        json: true,
        parsed,
        canonical: undefined,
        problems: [unstorable],
        closingDocumentCode: undefined,
        dedupeKey: undefined,
        businessCode: null,
        unstorable,
      };
  }
  const reading = readWebhookPayload(kind, parsed);
  let { value: canonical, problems, closingDocumentCode } = reading;
  // What processing applies (the canonical fields, never the unknown members) must be storable;
  // a closingDocumentCode holding U+0000 cannot even identify the event.
  if (mayNeedCheck) {
    const issue = canonical
      ? payloadIssue(canonical)
      : closingDocumentCode?.includes('\u0000')
        ? { path: 'closingDocumentCode', message: NUL_MESSAGE }
        : undefined;
    if (issue) {
      canonical = undefined;
      problems = [...problems, issue];
      if (issue.path === 'closingDocumentCode') closingDocumentCode = undefined;
    }
  }
  if (kind !== 'stock-regularization') {
    return {
      json: true,
      parsed,
      canonical,
      problems,
      closingDocumentCode,
      dedupeKey: closingDocumentCode === undefined ? undefined : `${kind}:${closingDocumentCode}`,
      businessCode: closingDocumentCode ?? null,
    };
  }
  // A readable regularization is keyed on what it says (so repeats written differently are one
  // event); an unreadable one on its bytes, the only identity it has.
  const dedupeKey =
    canonical && 'productExternalCode' in canonical ? regularizationKeyOf(canonical) : `${kind}:raw:${sha256Hex(text)}`;
  return {
    json: true,
    parsed,
    canonical,
    problems,
    closingDocumentCode: undefined,
    dedupeKey,
    businessCode: productOf(parsed),
  };
}

function productOf(parsed: unknown): string | null {
  const code =
    parsed !== null && typeof parsed === 'object'
      ? (parsed as { productExternalCode?: unknown }).productExternalCode
      : undefined;
  return typeof code === 'string' && code.trim() !== '' && !code.includes('\u0000') ? code : null;
}

/** One line naming every problem, `lines[0].quantity: expected a number…; movementTime: …`. */
export function problemsMessage(problems: readonly FieldProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('; ');
}
