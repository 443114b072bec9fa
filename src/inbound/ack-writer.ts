import { type Batcher, batcher } from '../lib/batcher.js';
import type { Config } from '../lib/config.js';
import type { Queue, RetryOptions } from '../queue/types.js';
import type { HeldEvent, InboxRepo, NewInboundEvent, RecordedEvent, Store } from '../store/types.js';
import { INBOUND_QUEUE, type ProcessJobData, processJobOptions } from './queue.js';

export interface AckResult {
  event: RecordedEvent;
  duplicate: boolean;
}

export interface AckWriterDeps {
  store: Store;
  queue: Queue;
  config: Config;
}

/**
 * Stores inbound events and their processing jobs atomically: an event is never stored without a
 * job, nor a job without its events. New accepted events go in one job; a held event (`holdSeconds`:
 * the synchronous close acknowledgement holds a close document while the ERP decides, close-ack.ts)
 * gets a job of its own, starting later, the durable safety net should this process die before the
 * ERP answered; repeats and rejected events get none.
 *
 * When the store and the queue can write both in ONE statement (Postgres with pg-boss: the
 * queue's jobs are rows of the same database), they do: a single statement is atomic, so the four
 * round trips of a transaction (BEGIN, events, job, COMMIT) become one, which is most of the
 * receiver's cost on Postgres. Otherwise (SQLite, in-process: no round trips to save) one
 * transaction holds the events and their `send`s.
 */
export async function writeEvents(deps: AckWriterDeps, items: readonly HeldEvent[]): Promise<AckResult[]> {
  // Rows are locked in one order by every transaction, so concurrent Postgres batches holding the
  // same keys wait for each other instead of deadlocking.
  const order = items.map((_, i) => i).sort((a, b) => compareKeys(items[a]!, items[b]!));
  const sorted = order.map((i) => items[i]!);
  const jobOptions = processJobOptions(deps.config);
  const { inbox } = deps.store;
  const recorded =
    inbox.recordManyWithJobs && deps.queue.jobsInStatement
      ? await inOneStatement(
          inbox.recordManyWithJobs.bind(inbox),
          deps.queue.jobsInStatement.bind(deps.queue),
          sorted,
          jobOptions,
        )
      : await inTransaction(deps, sorted, jobOptions);
  const results = new Array<AckResult>(items.length);
  recorded.forEach((result, n) => {
    results[order[n]!] = result;
  });
  return results;
}

async function inOneStatement(
  record: NonNullable<InboxRepo['recordManyWithJobs']>,
  jobsInStatement: NonNullable<Queue['jobsInStatement']>,
  sorted: readonly HeldEvent[],
  jobOptions: RetryOptions,
): Promise<AckResult[]> {
  const jobs = await jobsInStatement(INBOUND_QUEUE, jobOptions);
  const recorded = await record(sorted, jobs);
  jobs.written();
  return recorded;
}

async function inTransaction(
  deps: AckWriterDeps,
  sorted: readonly HeldEvent[],
  jobOptions: RetryOptions,
): Promise<AckResult[]> {
  return deps.store.transaction(async (tx) => {
    const recorded = await tx.inbox.recordMany(sorted);
    const eventIds: number[] = [];
    const held: { id: number; seconds: number }[] = [];
    recorded.forEach((result, n) => {
      if (result.duplicate || result.event.status !== 'received') return;
      const seconds = sorted[n]!.holdSeconds;
      if (seconds) held.push({ id: result.event.id, seconds });
      else eventIds.push(result.event.id);
    });
    if (eventIds.length > 0)
      await deps.queue.send<ProcessJobData>(
        INBOUND_QUEUE,
        { eventIds: eventIds.sort((a, b) => a - b) },
        { ...jobOptions, tx },
      );
    for (const h of held)
      await deps.queue.send<ProcessJobData>(
        INBOUND_QUEUE,
        { eventIds: [h.id] },
        { ...jobOptions, startAfter: h.seconds, tx },
      );
    return recorded;
  });
}

function compareKeys(a: NewInboundEvent, b: NewInboundEvent): number {
  if (a.connection !== b.connection) return a.connection < b.connection ? -1 : 1;
  if (a.dedupeKey === b.dedupeKey) return 0;
  return a.dedupeKey < b.dedupeKey ? -1 : 1;
}

/** Most deliveries one commit acknowledges: it keeps a burst's commits a few ms long; larger batches gain nothing. */
const ACK_BATCH_MAX = 256;
/** Acknowledging commits in flight at once on Postgres: enough to overlap their round trips. */
const ACK_COMMITS_IN_FLIGHT = 4;

/**
 * The receiver's writer: webhooks that arrive together share one transaction (group commit), and
 * each is answered only after that transaction committed.
 */
export function createAckWriter(
  deps: AckWriterDeps,
  onBatch?: (info: { size: number; ms: number; ok: boolean }) => void,
): Batcher<HeldEvent, AckResult> {
  return batcher<HeldEvent, AckResult>((items) => writeEvents(deps, items), {
    maxBatch: ACK_BATCH_MAX,
    // SQLite has one writer: a second transaction would only wait for the lock, and split batches.
    maxInFlight: deps.store.dialect === 'sqlite' ? 1 : ACK_COMMITS_IN_FLIGHT,
    isolateFailures: true,
    ...(onBatch ? { onBatch } : {}),
  });
}
