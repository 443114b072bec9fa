import type { AlertSignals } from '../lib/alert-signals.js';
import type { Batcher } from '../lib/batcher.js';
import type { Clock } from '../lib/clock.js';
import { AppError, errorMessage, unavailable, unsupportedMediaType, validationFailed } from '../lib/errors.js';
import { isJsonContentType } from '../lib/http.js';
import type { Logger } from '../lib/logger.js';
import type { HeldEvent, NewInboundEvent, RecordedEvent } from '../store/types.js';
import type { AckResult } from './ack-writer.js';
import { rejectedKeyOf } from './dedupe.js';
import type { WebhookKind } from './kinds.js';
import type { InboundMetrics } from './metrics.js';
import { problemsMessage, readPayload } from './reading.js';

export interface IngestContext {
  writer: Batcher<HeldEvent, AckResult>;
  clock: Clock;
  metrics: InboundMetrics;
  log: Logger;
  alerts?: AlertSignals;
}

export interface IngestInput {
  connection: string;
  kind: WebhookKind;
  contentType: string | undefined;
  /** The body exactly as received. */
  body: string;
  requestId: string;
  /** The receipt's trace, stored with the event so its processing continues it. */
  traceparent?: string | undefined;
  /** Start its processing only this late (the synchronous close acknowledgement's safety net). */
  holdSeconds?: number;
}

export type RejectReason = 'unsupported_media_type' | 'malformed_json' | 'invalid_payload';

export type IngestOutcome =
  | { ok: true; event: RecordedEvent; duplicate: boolean }
  | { ok: false; reason: RejectReason | 'unavailable'; error: AppError };

/**
 * Receives one authenticated webhook: reads it, and stores it durably (with its processing job)
 * before anyone answers. Refused (and stored as `rejected`, so an operator sees what the WMS sent)
 * only when it cannot be identified: not JSON, or a close document without a usable
 * closingDocumentCode. A JSON webhook that processing cannot apply as it is (a line without a
 * product, a quantity that is not a number…) is acknowledged and stored as `quarantined` with
 * the reason, for an operator to repair: refusing a stock regularization would lose it for good.
 */
export async function ingest(ctx: IngestContext, input: IngestInput): Promise<IngestOutcome> {
  const checked = check(input);
  const at = ctx.clock.now();
  const base = {
    connection: input.connection,
    kind: input.kind,
    payload: input.body,
    requestId: input.requestId,
    ...(input.traceparent ? { traceparent: input.traceparent } : {}),
    at,
  };
  if (!checked.ok) {
    ctx.metrics.rejected.inc({ connection: input.connection, kind: input.kind, reason: checked.reason });
    try {
      await ctx.writer.submit({
        ...base,
        dedupeKey: rejectedKeyOf(input.kind, input.body),
        status: 'rejected',
        error: checked.error.message,
      });
    } catch (err) {
      // The refusal stands (the WMS shows its message to the operator); only our copy is missing.
      ctx.log.error({ err: errorMessage(err), kind: input.kind }, 'could not store a rejected webhook');
    }
    return checked;
  }
  let result: AckResult;
  try {
    result = await ctx.writer.submit({
      ...base,
      ...checked.stored,
      ...(input.holdSeconds ? { holdSeconds: input.holdSeconds } : {}),
    });
  } catch (err) {
    ctx.log.error({ err: errorMessage(err), kind: input.kind }, 'could not store a webhook; not acknowledged');
    const error = unavailable('The event could not be stored and was not acknowledged; send it again');
    // What the store said (a full disk, say) stays readable to the storage state.
    error.cause = err;
    return { ok: false, reason: 'unavailable', error };
  }
  (result.duplicate ? ctx.metrics.duplicates : ctx.metrics.received).inc({
    connection: input.connection,
    kind: input.kind,
  });
  if (!result.duplicate && checked.stored.status === 'quarantined')
    ctx.alerts?.raise(
      input.connection,
      'event_quarantined',
      `event ${result.event.id} (${input.kind} ${checked.stored.businessCode ?? ''}): ${checked.stored.quarantineReason}`,
    );
  return { ok: true, event: result.event, duplicate: result.duplicate };
}

type Checked =
  | { ok: true; stored: Pick<NewInboundEvent, 'dedupeKey' | 'status' | 'businessCode' | 'quarantineReason'> }
  | { ok: false; reason: RejectReason; error: AppError };

/**
 * The refusal policy (docs/webhooks.md, "What a webhook gets"). The Content-Type is looked at only
 * when the body is not JSON: a JSON body sent with another type is read all the same (a stock
 * regularization refused for its header would be lost for good).
 */
export function check(input: Pick<IngestInput, 'kind' | 'contentType' | 'body'>): Checked {
  const read = readPayload(input.kind, input.body);
  if (!read.json) {
    if (!isJsonContentType(input.contentType))
      return { ok: false, reason: 'unsupported_media_type', error: unsupportedMediaType('application/json') };
    return {
      ok: false,
      reason: 'malformed_json',
      error: new AppError(400, 'malformed_json', `Body is not valid JSON: ${read.error}`),
    };
  }
  if (read.dedupeKey === undefined) {
    const problems = read.unstorable
      ? [read.unstorable]
      : read.problems.filter((p) => p.path === 'closingDocumentCode' || p.path === '(body)');
    return { ok: false, reason: 'invalid_payload', error: validationFailed(problemsMessage(problems), problems) };
  }
  const stored = { dedupeKey: read.dedupeKey, businessCode: read.businessCode };
  if (read.canonical) return { ok: true, stored: { ...stored, status: 'received' } };
  return { ok: true, stored: { ...stored, status: 'quarantined', quarantineReason: problemsMessage(read.problems) } };
}
