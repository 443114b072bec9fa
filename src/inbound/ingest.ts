import type { Clock } from '../lib/clock.js';
import { AppError, errorMessage, unavailable, unsupportedMediaType, validationFailed } from '../lib/errors.js';
import { isJsonContentType } from '../lib/http.js';
import type { Logger } from '../lib/logger.js';
import { mayNeedPayloadCheck, payloadIssue } from '../lib/nul.js';
import { fieldIssues, issuesMessage } from '../lib/zod-issues.js';
import type { NewInboundEvent, RecordedEvent } from '../store/types.js';
import type { AckResult } from './ack-writer.js';
import { dedupeKeyOf, rejectedKeyOf } from './dedupe.js';
import type { GroupCommit } from './group-commit.js';
import { KINDS, type WebhookKind } from './kinds.js';
import type { InboundMetrics } from './metrics.js';

export interface IngestContext {
  writer: GroupCommit<NewInboundEvent, AckResult>;
  clock: Clock;
  metrics: InboundMetrics;
  log: Logger;
}

export interface IngestInput {
  connection: string;
  kind: WebhookKind;
  contentType: string | undefined;
  /** The body exactly as received. */
  body: string;
  requestId: string;
}

export type RejectReason = 'unsupported_media_type' | 'malformed_json' | 'invalid_payload';

export type IngestOutcome =
  | { ok: true; event: RecordedEvent; duplicate: boolean }
  | { ok: false; reason: RejectReason | 'unavailable'; error: AppError };

/**
 * Receives one authenticated delivery: checks it, and stores it durably (with its processing job)
 * before anyone answers. A delivery that fails a check is stored too, as `rejected` with its raw
 * body and the error, so an operator can see what the WMS sent; its answer names the field.
 */
export async function ingest(ctx: IngestContext, input: IngestInput): Promise<IngestOutcome> {
  const checked = check(input);
  const at = ctx.clock.now();
  const base = { connection: input.connection, kind: input.kind, payload: input.body, requestId: input.requestId, at };
  if (!checked.ok) {
    ctx.metrics.rejected.inc({ connection: input.connection, kind: input.kind, reason: checked.reason });
    try {
      await ctx.writer.submit({ ...base, dedupeKey: rejectedKeyOf(input.kind, input.body), status: 'rejected', error: checked.error.message });
    } catch (err) {
      // The refusal stands (the WMS shows its message to the operator); only our copy is missing.
      ctx.log.error({ err: errorMessage(err), kind: input.kind }, 'could not store a rejected delivery');
    }
    return checked;
  }
  let result: AckResult;
  try {
    result = await ctx.writer.submit({ ...base, dedupeKey: checked.dedupeKey, status: 'received' });
  } catch (err) {
    ctx.log.error({ err: errorMessage(err), kind: input.kind }, 'could not store a delivery; not acknowledged');
    return {
      ok: false,
      reason: 'unavailable',
      error: unavailable('The event could not be stored and was not acknowledged; send it again'),
    };
  }
  (result.duplicate ? ctx.metrics.duplicates : ctx.metrics.received).inc({ connection: input.connection, kind: input.kind });
  return { ok: true, event: result.event, duplicate: result.duplicate };
}

type Checked = { ok: true; dedupeKey: string } | { ok: false; reason: RejectReason; error: AppError };

/** Content type, JSON syntax, then the kind's schema: the first failure is the answer. */
export function check(input: Pick<IngestInput, 'kind' | 'contentType' | 'body'>): Checked {
  if (!isJsonContentType(input.contentType)) {
    return { ok: false, reason: 'unsupported_media_type', error: unsupportedMediaType('application/json') };
  }
  let value: unknown;
  try {
    value = JSON.parse(input.body);
  } catch (err) {
    return { ok: false, reason: 'malformed_json', error: new AppError(400, 'malformed_json', `Body is not valid JSON: ${errorMessage(err)}`) };
  }
  const parsed = KINDS[input.kind].schema.safeParse(value);
  if (!parsed.success) {
    return { ok: false, reason: 'invalid_payload', error: validationFailed(issuesMessage(parsed.error), fieldIssues(parsed.error)) };
  }
  const issue = mayNeedPayloadCheck(input.body) ? payloadIssue(value) : undefined;
  if (issue !== undefined) {
    return { ok: false, reason: 'invalid_payload', error: validationFailed(`${issue.path}: ${issue.message}`, [issue]) };
  }
  return { ok: true, dedupeKey: dedupeKeyOf(input.kind, parsed.data) };
}
