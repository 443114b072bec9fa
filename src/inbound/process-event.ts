import type { AlertSignals } from '../lib/alert-signals.js';
import type { Clock } from '../lib/clock.js';
import { errorMessage } from '../lib/errors.js';
import { eventFields } from '../lib/event-log.js';
import type { Logger } from '../lib/logger.js';
import { noTracing, type OpenSpan, type Tracing } from '../lib/tracing.js';
import type { InboundEvent, ProcessedEvent, QuarantinedEvent, Store } from '../store/types.js';
import type { QuantityLine } from './differences.js';
import { effectsOf, orderedLinesOf, readStored, type StoredPayload } from './effects.js';
import type { InboundMetrics } from './metrics.js';
import { problemsMessage } from './reading.js';

export interface ProcessDeps {
  store: Store;
  clock: Clock;
  metrics: InboundMetrics;
  /** A span per event, continuing the trace of its receipt (none when tracing is off). */
  tracing?: Tracing;
  /** Debug lines of each event processed (its feed entry), for following one event through the logs. */
  logger?: Logger;
  alerts?: AlertSignals;
}

export type ProcessResult =
  | { status: 'processed'; feedEntryId: number; created: boolean }
  | { status: 'quarantined'; reason: string }
  | { status: 'skipped'; reason: 'missing' | 'already_processed' | 'rejected' | 'quarantined' };

/** One event's outcome in a batch: its result, or the error of its failed attempt (to retry). */
export type BatchOutcome =
  | { eventId: number; ok: true; result: ProcessResult }
  | { eventId: number; ok: false; error: Error };

/**
 * Most events one transaction applies. On SQLite the receiver waits for the single writer while a
 * processing transaction holds it, so a batch must stay short (about 50 µs an event); on Postgres
 * the feed-order lock is held from the feed entries' insert to the commit.
 */
export const PROCESS_BATCH_MAX = 64;

/**
 * Turns one stored event into its ERP feed entry and ledger movements (see `processEvents`).
 * Throws on failure; the job retries with backoff.
 */
export async function processEvent(deps: ProcessDeps, eventId: number): Promise<ProcessResult> {
  const [outcome] = await processEvents(deps, [eventId]);
  if (!outcome!.ok) throw outcome!.error;
  return outcome!.result;
}

/**
 * Turns stored events into their ERP feed entries and ledger movements, several per transaction.
 * Idempotent: it runs at least once per event (a worker may die after the commit and before the
 * job is marked done), so the feed entry and the movements are keyed on the event and a second
 * run adds nothing; an event already processed is skipped.
 *
 * One statement counts an attempt on every event still to process; the events are read and their
 * effects computed outside any transaction; then one transaction records all of them (a crash
 * before its commit leaves every event of the batch to be processed again, after it none). When
 * that transaction fails, each event is recorded again in a transaction of its own, so one event
 * that cannot be written fails alone and the others are processed once. An event whose payload
 * cannot be read fails alone before the transaction. Outcomes come in the order of `eventIds`.
 */
export async function processEvents(deps: ProcessDeps, eventIds: readonly number[]): Promise<BatchOutcome[]> {
  const ids = [...new Set(eventIds)];
  const outcomes = new Map<number, BatchOutcome>();
  for (let i = 0; i < ids.length; i += PROCESS_BATCH_MAX) {
    for (const outcome of await processChunk(deps, ids.slice(i, i + PROCESS_BATCH_MAX)))
      outcomes.set(outcome.eventId, outcome);
  }
  return eventIds.map((id) => outcomes.get(id)!);
}

interface Ready {
  event: InboundEvent;
  processed: ProcessedEvent;
  /** The event's processing span and its feed entry's, ended with the batch's outcome. */
  spans: OpenSpan[];
}

async function processChunk(deps: ProcessDeps, ids: number[]): Promise<BatchOutcome[]> {
  const { store } = deps;
  const claimed = await store.processing.claim(ids);
  const outcomes: BatchOutcome[] = await skipped(store, ids, new Set(claimed.map((e) => e.id)));

  const ready: Ready[] = [];
  const quarantine: QuarantinedEvent[] = [];
  const readable: { event: InboundEvent; stored: StoredPayload }[] = [];
  for (const event of claimed) {
    try {
      const read = readStored(event);
      // Not an error to retry: the payload says something processing cannot apply. It waits for an
      // operator's correction (wms-sync events edit, PUT /admin/v1/events/{id}/payload).
      if (read.ok) readable.push({ event, stored: read.stored });
      else quarantine.push({ eventId: event.id, connection: event.connection, reason: problemsMessage(read.problems) });
    } catch (err) {
      outcomes.push({ eventId: event.id, ok: false, error: toError(err) });
    }
  }
  const documents = await orderedDocuments(store, readable);
  const at = deps.clock.now();
  const tracing = deps.tracing ?? noTracing;
  for (const { event, stored } of readable) {
    const span = tracing.start('inbound.process', {
      parent: event.traceparent,
      attributes: {
        'wms_sync.event_id': event.id,
        'wms_sync.connection': event.connection,
        'wms_sync.kind': event.kind,
      },
    });
    try {
      const code = stored.flow === 'reception' ? stored.payload.documentExternalCode : null;
      const effects = effectsOf(
        event,
        stored,
        code === null ? undefined : documents.get(documentKey(event.connection, code)),
      );
      const feedSpan = tracing.start('feed.entry', {
        parent: span.traceparent,
        attributes: { 'wms_sync.feed_type': effects.type, 'wms_sync.connection': event.connection },
      });
      ready.push({
        event,
        spans: [feedSpan, span],
        processed: {
          eventId: event.id,
          connection: event.connection,
          movements: effects.movements.map((m) => ({ ...m, at })),
          feedEntry: {
            connection: event.connection,
            type: effects.type,
            dedupeKey: effects.dedupeKey,
            sourceEventId: event.id,
            data: effects.data,
            traceparent: feedSpan.traceparent ?? null,
            at,
          },
        },
      });
    } catch (err) {
      span.end(err);
      outcomes.push({ eventId: event.id, ok: false, error: toError(err) });
    }
  }

  if (quarantine.length > 0) {
    await store.transaction((tx) => tx.processing.quarantine(quarantine, at));
    for (const q of quarantine) {
      deps.logger?.warn({ ...eventFields(q.eventId, q.connection), reason: q.reason }, 'event quarantined');
      deps.alerts?.raise(q.connection, 'event_quarantined', `event ${q.eventId}: ${q.reason}`);
    }
    for (const q of quarantine)
      outcomes.push({ eventId: q.eventId, ok: true, result: { status: 'quarantined', reason: q.reason } });
  }
  if (ready.length > 0) {
    const completed = await complete(deps, ready, at);
    const byId = new Map(completed.map((o) => [o.eventId, o]));
    for (const r of ready) {
      const o = byId.get(r.event.id);
      for (const s of r.spans) s.end(o && !o.ok ? o.error : undefined);
    }
    outcomes.push(...completed);
  }
  return outcomes;
}

/** Records the batch in one transaction, else (it failed and rolled back) each event in its own. */
async function complete(deps: ProcessDeps, ready: Ready[], at: Date): Promise<BatchOutcome[]> {
  const done = (r: Ready, c: { feedEntryId: number; created: boolean }): BatchOutcome => {
    deps.metrics.processed.inc({ connection: r.event.connection, kind: r.event.kind });
    deps.logger?.debug(
      {
        ...eventFields(r.event.id, r.event.connection),
        kind: r.event.kind,
        feedEntryId: c.feedEntryId,
        created: c.created,
      },
      'event processed',
    );
    deps.metrics.processingLagSeconds.observe(
      { kind: r.event.kind },
      Math.max(0, at.getTime() - r.event.receivedAt.getTime()) / 1000,
    );
    return {
      eventId: r.event.id,
      ok: true,
      result: { status: 'processed', feedEntryId: c.feedEntryId, created: c.created },
    };
  };
  try {
    const results = await deps.store.transaction((tx) =>
      tx.processing.complete(
        ready.map((r) => r.processed),
        at,
      ),
    );
    return ready.map((r, i) => done(r, results[i]!));
  } catch (err) {
    if (ready.length === 1) return [{ eventId: ready[0]!.event.id, ok: false, error: toError(err) }];
  }
  const outcomes: BatchOutcome[] = [];
  for (const r of ready) {
    try {
      const [result] = await deps.store.transaction((tx) => tx.processing.complete([r.processed], at));
      outcomes.push(done(r, result!));
    } catch (err) {
      outcomes.push({ eventId: r.event.id, ok: false, error: toError(err) });
    }
  }
  return outcomes;
}

/** Why the events the claim left alone are not processed: missing, or in a final state. */
async function skipped(store: Store, ids: number[], claimed: Set<number>): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = [];
  for (const id of ids) {
    if (claimed.has(id)) continue;
    const event = await store.inbox.get(id);
    const reason = !event
      ? 'missing'
      : event.status === 'processed'
        ? 'already_processed'
        : event.status === 'rejected' || event.status === 'rejected_by_erp'
          ? 'rejected'
          : 'quarantined';
    outcomes.push({ eventId: id, ok: true, result: { status: 'skipped', reason } });
  }
  return outcomes;
}

const documentKey = (connection: string, code: string) => `${connection}\u0000${code}`;

/** The ordered lines of the documents the batch's receptions close, when the ERP pushed them. */
async function orderedDocuments(
  store: Store,
  readable: { event: InboundEvent; stored: StoredPayload }[],
): Promise<Map<string, QuantityLine[] | undefined>> {
  const wanted = new Map<string, Set<string>>();
  for (const { event, stored } of readable) {
    if (stored.flow !== 'reception' || stored.payload.documentExternalCode === null) continue;
    wanted.set(event.connection, (wanted.get(event.connection) ?? new Set()).add(stored.payload.documentExternalCode));
  }
  const found = new Map<string, QuantityLine[] | undefined>();
  for (const [connection, codes] of wanted) {
    for (const record of await store.processing.documents(connection, [...codes])) {
      found.set(documentKey(connection, record.externalCode), orderedLinesOf(record.payload));
    }
  }
  return found;
}

const toError = (err: unknown) => (err instanceof Error ? err : new Error(errorMessage(err)));
