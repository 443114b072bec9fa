import { Counter, Histogram, type Registry } from 'prom-client';
import type { AlertSignals } from '../lib/alert-signals.js';
import type { Clock } from '../lib/clock.js';
import type { Config } from '../lib/config.js';
import type { ConnectionConfig } from '../lib/connections.js';
import { errorMessage, unavailable } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import type { Queue } from '../queue/types.js';
import type { RecordedEvent, Store } from '../store/types.js';
import type { CanonicalCloseReception, CanonicalCloseShipping } from '../wms/webhooks-tolerant.js';
import { askErp, CLOSE_DOCUMENT_RECEIVED, type ErpAnswer } from './close-ack-http.js';
import type { WebhookKind } from './kinds.js';
import { INBOUND_QUEUE, processJobOptions } from './queue.js';
import { readPayload } from './reading.js';

export { CLOSE_DOCUMENT_RECEIVED, type CloseDocumentMessage } from './close-ack-http.js';

/**
 * Synchronous close acknowledgement (docs/erp-delivery.md). For a connection with
 * `erpCloseAck: 'sync'`, a close document is stored as usual (its processing job held back, the
 * safety net), then forwarded to the ERP; the ERP's `{success:false, message}` goes back to the
 * WMS, whose operator sees it, and the event stays `rejected_by_erp`. Anything else (an
 * acceptance, a timeout, an error) gives the WMS its 200 and the document is processed as usual.
 */

/** The four close documents; stock regularizations are never re-sent by the WMS, so never held. */
const CLOSE_KINDS: ReadonlySet<WebhookKind> = new Set([
  'reception-close',
  'client-return-close',
  'shipping-order-close',
  'supplier-return-close',
]);

/** Held processing starts this long after the ERP's budget: the ERP's decision always comes first. */
const SAFETY_MARGIN_SECONDS = 60;

/** `{ holdSeconds }` when this event waits for the ERP's decision; undefined when it does not. */
export function closeAckPlan(
  connection: ConnectionConfig,
  kind: WebhookKind,
  config: Config,
): { holdSeconds: number } | undefined {
  if (connection.erpCloseAck !== 'sync' || !connection.erpWebhook || !CLOSE_KINDS.has(kind)) return undefined;
  return { holdSeconds: Math.ceil(config.erpCloseAck.timeoutMs / 1000) + SAFETY_MARGIN_SECONDS };
}

export interface CloseAckDeps {
  store: Store;
  queue: Queue;
  clock: Clock;
  config: Config;
  log: Logger;
  metrics: CloseAckMetrics;
  stopping?: AbortSignal;
  alerts?: AlertSignals;
}

export interface CloseAckInput {
  connection: ConnectionConfig;
  kind: WebhookKind;
  /** The webhook's body, as received. */
  body: string;
  event: RecordedEvent;
  duplicate: boolean;
}

/**
 * The WMS's answer when it is not the usual one: the ERP's refusal, exactly the spec's rejection
 * body; or a plain acceptance of a repeat that is now processed (not "already received").
 */
export type CloseAckAnswer = { success: false; message: string } | { success: true };

/**
 * Asks the ERP about a stored close document and settles the event. Returns the answer for the
 * WMS, or undefined for the usual one. Forwarded: a new event stored as `received`, and
 * a repeat of one the ERP refused (the operator may have fixed the cause, so the ERP may now
 * accept). Not forwarded: other repeats (already decided) and quarantined events (unreadable,
 * they wait for an operator's repair as usual).
 */
export async function acknowledgeClose(deps: CloseAckDeps, input: CloseAckInput): Promise<CloseAckAnswer | undefined> {
  const { event, connection } = input;
  const forward = input.duplicate ? event.status === 'rejected_by_erp' : event.status === 'received';
  const { kind } = input;
  // Stock regularizations are never asked about (closeAckHold); the check narrows the kind.
  if (!forward || !connection.erpWebhook || kind === 'stock-regularization') return undefined;
  const canonical = readPayload(input.kind, input.body);
  const data = canonical.json ? canonical.canonical : undefined;
  if (data === undefined)
    return settle(deps, input, {
      decision: 'none',
      reason: 'unreadable',
      detail: 'not forwarded: no canonical reading',
      ms: 0,
    });
  const answer = await askErp({
    url: connection.erpWebhook.url,
    secrets: connection.erpWebhook.secrets,
    // A new id per forward: a repeat asks the ERP again, and must not be taken for a retry of the first.
    messageId: `close_${event.id}_${event.duplicates}`,
    at: deps.clock.now(),
    message: {
      type: CLOSE_DOCUMENT_RECEIVED,
      connection: connection.name,
      kind,
      eventId: event.id,
      // A close kind's reading is a close document.
      data: data as CanonicalCloseReception | CanonicalCloseShipping,
    },
    timeoutMs: deps.config.erpCloseAck.timeoutMs,
    ...(deps.stopping ? { signal: deps.stopping } : {}),
  });
  deps.metrics.answers.inc({
    connection: connection.name,
    outcome: answer.decision === 'none' ? answer.reason : answer.decision,
  });
  deps.metrics.seconds.observe({ connection: connection.name }, answer.ms / 1000);
  return settle(deps, input, answer);
}

async function settle(
  deps: CloseAckDeps,
  input: CloseAckInput,
  answer: ErpAnswer,
): Promise<CloseAckAnswer | undefined> {
  const { event } = input;
  const at = deps.clock.now();
  if (answer.decision === 'rejected') {
    try {
      if (await deps.store.inbox.markRejectedByErp(event.id, answer.message, at)) {
        await keepRefusal(deps, event, input.connection.name, answer.message, at);
        deps.alerts?.raise(
          input.connection.name,
          'close_refused',
          `event ${event.id} (${input.kind}): ${answer.message}`,
        );
        return { success: false, message: answer.message };
      }
      deps.log.warn(
        { eventId: event.id },
        'the ERP refused a close document already processed meanwhile; acknowledged',
      );
      return undefined;
    } catch (err) {
      // The refusal could not be kept: acknowledge, the held job processes it (never a loss).
      deps.log.error(
        { err: errorMessage(err), eventId: event.id },
        'could not record the ERP refusal; the document will be processed',
      );
      return undefined;
    }
  }
  if (answer.decision === 'none')
    deps.log.warn(
      { eventId: event.id, reason: answer.reason, detail: answer.detail },
      'the ERP did not decide on a close document; processed as usual',
    );
  const queue = () =>
    deps.store.transaction(async (tx) => {
      if (input.duplicate) await tx.inbox.reopen(event.id, at);
      await deps.queue.send(INBOUND_QUEUE, { eventIds: [event.id] }, { ...processJobOptions(deps.config), tx });
    });
  const failed = (err: unknown) =>
    deps.log.error(
      { err: errorMessage(err), eventId: event.id },
      'could not queue the processing of an accepted close document',
    );
  if (!input.duplicate) {
    // Not waited for: the WMS has waited for the ERP already, and should this job not be written,
    // the held one processes the document.
    queue().catch(failed);
    return undefined;
  }
  try {
    await queue();
  } catch (err) {
    failed(err);
    // A refused document re-sent has no held job: ask the WMS to send it again.
    throw unavailable('The event could not be stored and was not acknowledged; send it again');
  }
  return { success: true };
}

/** The refusal, among the event's attempts: its page keeps it after an override or a later acceptance. */
async function keepRefusal(
  deps: CloseAckDeps,
  event: RecordedEvent,
  connection: string,
  message: string,
  at: Date,
): Promise<void> {
  try {
    await deps.store.inbox.recordAttemptOutcome({
      eventId: event.id,
      connection,
      outcome: 'rejected_by_erp',
      error: message,
      at,
    });
  } catch (err) {
    deps.log.warn({ err: errorMessage(err), eventId: event.id }, 'could not keep the ERP refusal among the attempts');
  }
}

export interface CloseAckMetrics {
  answers: Counter<'connection' | 'outcome'>;
  seconds: Histogram<'connection'>;
}

/** Created on first use, like the receiver's other metrics (one registry per process). */
export function closeAckMetrics(registry: Registry): CloseAckMetrics {
  const answersName = 'wms_sync_erp_close_ack_total';
  const secondsName = 'wms_sync_erp_close_ack_seconds';
  return {
    answers:
      (registry.getSingleMetric(answersName) as Counter<'connection' | 'outcome'> | undefined) ??
      new Counter({
        name: answersName,
        help: 'Close documents forwarded to the ERP for a decision (outcome: accepted, rejected, timeout, unreachable, http_status)',
        labelNames: ['connection', 'outcome'],
        registers: [registry],
      }),
    seconds:
      (registry.getSingleMetric(secondsName) as Histogram<'connection'> | undefined) ??
      new Histogram({
        name: secondsName,
        help: 'Time the ERP took to answer a forwarded close document (or the budget, when it did not)',
        labelNames: ['connection'],
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40],
        registers: [registry],
      }),
  };
}
