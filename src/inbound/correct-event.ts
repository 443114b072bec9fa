import type { Clock } from '../lib/clock.js';
import type { Config } from '../lib/config.js';
import type { Queue } from '../queue/types.js';
import type { EditChange, InboundEvent, InboundEventEdit, Store } from '../store/types.js';
import { effectivePayloadOf } from './effects.js';
import { jsonChanges } from './json-changes.js';
import { isWebhookKind } from './kinds.js';
import { INBOUND_QUEUE, processJobOptions } from './queue.js';
import { type CanonicalPayload, type FieldProblem, readPayload } from './reading.js';

/** What an operator may correct: what processing could not apply. Processed events are in the feed already. */
export const EDITABLE_STATUSES = ['quarantined', 'failed'] as const;

export interface CorrectionInput {
  id: number;
  /** The whole corrected payload, as JSON (any value: the reading says what is wrong with it). */
  payload: unknown;
  actor: string;
  /** Check only: nothing is stored. */
  dryRun?: boolean;
}

export type CorrectionResult =
  | {
      ok: true;
      stored: boolean;
      event: InboundEvent;
      canonical: CanonicalPayload;
      changes: EditChange[];
      edit: InboundEventEdit | null;
      jobId: string | null;
    }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'not_editable'; status: InboundEvent['status'] }
  | { ok: false; reason: 'invalid'; problems: FieldProblem[] };

export interface CorrectionDeps {
  store: Store;
  queue: Queue;
  clock: Clock;
  config: Config;
}

/**
 * Stores an operator's corrected payload beside the original (never over it), adds it to the
 * event's edit history with who and what changed, and queues the processing again, in one
 * transaction. The correction is read exactly as a received webhook is: a problem the tolerant reading
 * finds is answered with the problems and nothing is stored. A close document's
 * closingDocumentCode cannot change: it is the event's identity (its repeats are keyed on it).
 */
export async function correctEvent(deps: CorrectionDeps, input: CorrectionInput): Promise<CorrectionResult> {
  const event = await deps.store.inbox.get(input.id);
  if (!event || !isWebhookKind(event.kind)) return { ok: false, reason: 'not_found' };
  if (!(EDITABLE_STATUSES as readonly string[]).includes(event.status))
    return { ok: false, reason: 'not_editable', status: event.status };
  const text = JSON.stringify(input.payload);
  const read = readPayload(event.kind, text);
  if (!read.json) return { ok: false, reason: 'invalid', problems: [{ path: '(body)', message: read.error }] };
  const problems = [...read.problems];
  if (
    event.kind !== 'stock-regularization' &&
    read.closingDocumentCode !== undefined &&
    read.dedupeKey !== event.dedupeKey
  ) {
    problems.push({
      path: 'closingDocumentCode',
      message: `identifies the event and cannot change (it is "${event.dedupeKey.slice(event.kind.length + 1)}")`,
    });
  }
  const changes = jsonChanges(previousOf(event), input.payload);
  if (problems.length === 0 && changes.length === 0) {
    problems.push({
      path: '(body)',
      message: 'the correction changes nothing; to run the processing again, retry the event',
    });
  }
  if (problems.length > 0 || !read.canonical) return { ok: false, reason: 'invalid', problems };
  if (input.dryRun)
    return { ok: true, stored: false, event, canonical: read.canonical, changes, edit: null, jobId: null };

  const at = deps.clock.now();
  const { edit, jobId } = await deps.store.transaction(async (tx) => {
    const added = await tx.inbox.addEdit({
      eventId: event.id,
      connection: event.connection,
      actor: input.actor,
      payload: text,
      changes,
      at,
    });
    await tx.inbox.reopen(event.id, at);
    const job = await deps.queue.send(
      INBOUND_QUEUE,
      { eventIds: [event.id] },
      { ...processJobOptions(deps.config), tx },
    );
    return { edit: added, jobId: job };
  });
  return {
    ok: true,
    stored: true,
    event: (await deps.store.inbox.get(event.id))!,
    canonical: read.canonical,
    changes,
    edit,
    jobId,
  };
}

function previousOf(event: InboundEvent): unknown {
  try {
    return JSON.parse(effectivePayloadOf(event));
  } catch {
    return effectivePayloadOf(event);
  }
}

const ACTOR = /^[\p{L}\p{N} ._@:+\-/]{1,100}$/u;

/** Who made a change, as a request or command names it; `fallback` when it names nobody sanely. */
export function actorName(raw: string | undefined, fallback: string): string {
  const name = raw?.trim();
  return name && ACTOR.test(name) ? name : fallback;
}
