import type { Clock } from '../lib/clock.js';
import type { Store } from '../store/types.js';
import { effectsOf, orderedLinesOf, parseStored } from './effects.js';
import type { InboundMetrics } from './metrics.js';

export interface ProcessDeps {
  store: Store;
  clock: Clock;
  metrics: InboundMetrics;
}

export type ProcessResult =
  | { status: 'processed'; confirmationId: number; created: boolean }
  | { status: 'skipped'; reason: 'missing' | 'already_processed' | 'rejected' };

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
  if (event.status === 'rejected') return { status: 'skipped', reason: 'rejected' };
  // Counted outside the transaction below, so attempts that fail are counted too.
  await store.inbox.recordAttempt(event.id, deps.clock.now());

  const stored = parseStored(event);
  let ordered;
  if (stored.flow === 'reception') {
    const document = await store.outbox.get(event.connection, 'document', stored.payload.documentExternalCode);
    ordered = document ? orderedLinesOf(document.payload) : undefined;
  }
  const effects = effectsOf(event, stored, ordered);

  const at = deps.clock.now();
  const { confirmation, created } = await store.transaction(async (tx) => {
    await tx.ledger.record(effects.movements.map((m) => ({ ...m, at })));
    await tx.inbox.markProcessed(event.id, at);
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
