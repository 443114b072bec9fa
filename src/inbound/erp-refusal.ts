import type { Registry } from 'prom-client';
import type { Clock } from '../lib/clock.js';
import type { Config } from '../lib/config.js';
import type { ConnectionRegistry } from '../lib/connection-registry.js';
import type { Queue } from '../queue/types.js';
import type { InboundEvent, Store } from '../store/types.js';
import type { AuditChannel } from '../store/values.js';
import type { CanonicalCloseReception, CanonicalCloseShipping } from '../wms/webhooks-tolerant.js';
import { closeAckMetrics } from './close-ack.js';
import { askErp, CLOSE_DOCUMENT_RECEIVED } from './close-ack-http.js';
import type { WebhookKind } from './kinds.js';
import { INBOUND_QUEUE, processJobOptions } from './queue.js';
import { readPayload } from './reading.js';

interface RefusalDeps {
  store: Store;
  queue: Queue;
  clock: Clock;
  config: Config;
  connections: ConnectionRegistry;
  metrics: Registry;
  stopping?: AbortSignal;
}

/** Why nothing was asked or done: the event is not one the ERP refused, or cannot be asked about. */
export type RefusalProblem = 'not_found' | 'not_refused' | 'no_erp' | 'pruned';

/**
 * What the ERP said when asked again. `accepted`: the event is queued for processing;
 * `rejected` (with the ERP's message) and `none` (no decision: timeout, unreachable, not a 2xx):
 * it stays refused, since only the ERP or an operator's override may lift a refusal.
 */
export type AskAgainResult =
  | { ok: true; decision: 'accepted'; event: InboundEvent }
  | { ok: true; decision: 'rejected'; message: string; event: InboundEvent }
  | { ok: true; decision: 'none'; detail: string; event: InboundEvent }
  | { ok: false; reason: RefusalProblem };

/**
 * An operator's Retry of an event the ERP refused: the ERP is asked again the question the
 * synchronous close acknowledgement asked (docs/erp-delivery.md), signed, within the same budget
 * (ERP_CLOSE_ACK_TIMEOUT_MS). Unlike a webhook waiting for its answer, nobody is left waiting
 * when the ERP does not decide: the refusal stands and the operator may ask again or override it.
 */
export async function askErpAgain(deps: RefusalDeps, id: number): Promise<AskAgainResult> {
  const event = await deps.store.inbox.get(id);
  if (!event) return { ok: false, reason: 'not_found' };
  if (event.status !== 'rejected_by_erp') return { ok: false, reason: 'not_refused' };
  if (event.payloadPrunedAt) return { ok: false, reason: 'pruned' };
  const connection = deps.connections.get(event.connection);
  if (!connection?.erpWebhook) return { ok: false, reason: 'no_erp' };
  const kind = event.kind as WebhookKind;
  // Only close documents are asked about: a refused event is one of them.
  if (kind === 'stock-regularization') return { ok: false, reason: 'not_refused' };
  const reading = readPayload(kind, event.correction ?? event.payload);
  const data = reading.json ? reading.canonical : undefined;
  if (data === undefined) return { ok: false, reason: 'no_erp' };
  const at = deps.clock.now();
  const answer = await askErp({
    url: connection.erpWebhook.url,
    secrets: connection.erpWebhook.secrets,
    // Its own id: the ERP must not take this question for a retry of the one it answered.
    messageId: `close_${event.id}_retry_${at.getTime()}`,
    at,
    message: {
      type: CLOSE_DOCUMENT_RECEIVED,
      connection: connection.name,
      kind,
      eventId: event.id,
      data: data as CanonicalCloseReception | CanonicalCloseShipping,
    },
    timeoutMs: deps.config.erpCloseAck.timeoutMs,
    ...(deps.stopping ? { signal: deps.stopping } : {}),
  });
  const metrics = closeAckMetrics(deps.metrics);
  metrics.answers.inc({
    connection: connection.name,
    outcome: answer.decision === 'none' ? answer.reason : answer.decision,
  });
  metrics.seconds.observe({ connection: connection.name }, answer.ms / 1000);
  const done = deps.clock.now();
  if (answer.decision === 'accepted') {
    await deps.store.transaction(async (tx) => {
      if (await tx.inbox.reopen(event.id, done))
        await deps.queue.send(INBOUND_QUEUE, { eventIds: [event.id] }, { ...processJobOptions(deps.config), tx });
    });
    return { ok: true, decision: 'accepted', event: (await deps.store.inbox.get(id))! };
  }
  if (answer.decision === 'rejected') {
    await deps.store.transaction(async (tx) => {
      if (await tx.inbox.markRejectedByErp(event.id, answer.message, done))
        await tx.inbox.recordAttemptOutcome({
          eventId: event.id,
          connection: event.connection,
          outcome: 'rejected_by_erp',
          error: answer.message,
          at: done,
        });
    });
    return { ok: true, decision: 'rejected', message: answer.message, event: (await deps.store.inbox.get(id))! };
  }
  return { ok: true, decision: 'none', detail: `${answer.reason}: ${answer.detail}`, event };
}

export interface OverrideInput {
  id: number;
  /** Why the operator processes the document against the ERP's refusal; required, kept in the audit trail. */
  reason: string;
  operator: string;
  channel: AuditChannel;
}

export type OverrideResult =
  | { ok: true; event: InboundEvent }
  | { ok: false; reason: Exclude<RefusalProblem, 'no_erp'> | 'no_reason' };

/** Longest reason kept. */
export const OVERRIDE_REASON_LIMIT = 1000;

/**
 * "Override the ERP's refusal": the document is processed as if the ERP had accepted it (its
 * feed entry goes to the ERP). Its audit entry, with the operator's reason, is written in the
 * same transaction as the reopening and the job: there is no override without its reason.
 */
export async function overrideErpRefusal(deps: RefusalDeps, input: OverrideInput): Promise<OverrideResult> {
  const reason = input.reason.trim();
  if (reason === '') return { ok: false, reason: 'no_reason' };
  const event = await deps.store.inbox.get(input.id);
  if (!event) return { ok: false, reason: 'not_found' };
  if (event.status !== 'rejected_by_erp') return { ok: false, reason: 'not_refused' };
  if (event.payloadPrunedAt) return { ok: false, reason: 'pruned' };
  const at = deps.clock.now();
  const reopened = await deps.store.transaction(async (tx) => {
    if (!(await tx.inbox.reopen(event.id, at))) return false;
    await deps.queue.send(INBOUND_QUEUE, { eventIds: [event.id] }, { ...processJobOptions(deps.config), tx });
    await tx.audit.record({
      at,
      operator: input.operator,
      channel: input.channel,
      action: 'event.override',
      connection: event.connection,
      target: `event:${event.id}`,
      outcome: 'ok',
      detail: reason.slice(0, OVERRIDE_REASON_LIMIT),
    });
    return true;
  });
  if (!reopened) return { ok: false, reason: 'not_refused' };
  return { ok: true, event: (await deps.store.inbox.get(input.id))! };
}
