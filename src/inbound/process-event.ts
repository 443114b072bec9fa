import type { Clock } from '../lib/clock.js';
import type { Store } from '../store/types.js';
import { effectsOf, orderedLinesOf, readStored } from './effects.js';
import type { InboundMetrics } from './metrics.js';
import { problemsMessage } from './reading.js';

export interface ProcessDeps {
  store: Store;
  clock: Clock;
  metrics: InboundMetrics;
}

export type ProcessResult =
  | { status: 'processed'; confirmationId: number; created: boolean }
  | { status: 'quarantined'; reason: string }
  | { status: 'skipped'; reason: 'missing' | 'already_processed' | 'rejected' | 'quarantined' };

/**
 * Turns one stored event into its ERP confirmation and ledger movements. Idempotent: it runs at
 * least once per event (a worker may die after the commit and before the job is marked done), so
 * the confirmation and the movements are keyed on the event and a second run adds nothing.
 * Throws on failure; the job retries with backoff.
 */
export async function processEvent(deps: ProcessDeps, eventId: number): Promise<ProcessResult> {
  const { store } = deps;
  const event = await store.inbox.get(eventId);
  if (!event) return { status: 'skipped', reason: 'missing' };
  if (event.status === 'processed') return { status: 'skipped', reason: 'already_processed' };
  // rejected_by_erp: the ERP refused it (close-ack.ts); only an operator's retry reopens it.
  if (event.status === 'rejected' || event.status === 'rejected_by_erp') return { status: 'skipped', reason: 'rejected' };
  if (event.status === 'quarantined') return { status: 'skipped', reason: 'quarantined' };
  // Counted outside the transaction below, so attempts that fail are counted too.
  await store.inbox.recordAttempt(event.id, deps.clock.now());

  const read = readStored(event);
  if (!read.ok) {
    // Not an error to retry: the payload says something processing cannot apply. It waits for an
    // operator's correction (wms-sync events edit, PUT /admin/v1/events/{id}/payload).
    const reason = problemsMessage(read.problems);
    const at = deps.clock.now();
    await store.transaction(async (tx) => {
      if (await tx.inbox.markQuarantined(event.id, reason, at)) {
        await tx.inbox.recordAttemptOutcome({ eventId: event.id, connection: event.connection, outcome: 'quarantined', error: reason, at });
      }
    });
    return { status: 'quarantined', reason };
  }
  const stored = read.stored;
  let ordered;
  if (stored.flow === 'reception' && stored.payload.documentExternalCode !== null) {
    const document = await store.outbox.get(event.connection, 'document', stored.payload.documentExternalCode);
    ordered = document ? orderedLinesOf(document.payload) : undefined;
  }
  const effects = effectsOf(event, stored, ordered);

  const at = deps.clock.now();
  const { confirmation, created } = await store.transaction(async (tx) => {
    await tx.ledger.record(effects.movements.map((m) => ({ ...m, at })));
    await tx.inbox.markProcessed(event.id, at);
    await tx.inbox.recordAttemptOutcome({ eventId: event.id, connection: event.connection, outcome: 'processed', at });
    // Last: on Postgres the append takes the feed-order lock, held until this transaction commits.
    return tx.confirmations.append({
      connection: event.connection,
      type: effects.type,
      dedupeKey: effects.dedupeKey,
      sourceEventId: event.id,
      data: effects.data,
      at,
    });
  });
  deps.metrics.processed.inc({ connection: event.connection, kind: event.kind });
  deps.metrics.processingLagSeconds.observe({ kind: event.kind }, Math.max(0, at.getTime() - event.receivedAt.getTime()) / 1000);
  return { status: 'processed', confirmationId: confirmation.id, created };
}
