import { batcher } from '../lib/batcher.js';
import type { Store } from '../store/types.js';
import { type BatchOutcome, PROCESS_BATCH_MAX, type ProcessDeps, processEvents } from './process-event.js';

/** Processes events; resolves with one outcome per id, in order. */
export type EventProcessor = (eventIds: readonly number[]) => Promise<BatchOutcome[]>;

/**
 * Batches of this process's processing in flight at once. SQLite has one writer, shared with the
 * receiver: one batch at a time. On Postgres four: a batch is about seven round trips, each
 * waiting for the event loop the receiver keeps busy, so batches overlap to keep up (the
 * feed-order lock serializes only their last two); that still leaves most of the pool to the
 * receiver's commits, instead of queueing them behind dozens of processing transactions (the
 * worker runs up to WORKER_CONCURRENCY × WORKER_BATCH_SIZE jobs side by side).
 */
export const processingInFlight = (store: Pick<Store, 'dialect'>) => (store.dialect === 'sqlite' ? 1 : 4);

/**
 * The worker's processing: the events of the jobs running side by side share batches (`lib/batcher.ts`), up to PROCESS_BATCH_MAX events per batch and `processingInFlight`
 * batches at once, instead of one transaction (and one pooled connection) per job. Each event
 * still gets its own outcome: a batch that cannot even start (the database is unreachable) is
 * retried event by event, and an event that fails alone rejects alone.
 */
export function createEventProcessor(deps: ProcessDeps): EventProcessor {
  const batches = batcher<number, BatchOutcome>((ids) => processEvents(deps, ids), {
    maxBatch: PROCESS_BATCH_MAX,
    maxInFlight: processingInFlight(deps.store),
    isolateFailures: true,
  });
  return async (eventIds) => {
    const settled = await Promise.allSettled(eventIds.map((id) => batches.submit(id)));
    return settled.map((s, i) =>
      s.status === 'fulfilled'
        ? s.value
        : {
            eventId: eventIds[i]!,
            ok: false,
            error: s.reason instanceof Error ? s.reason : new Error(String(s.reason)),
          },
    );
  };
}
