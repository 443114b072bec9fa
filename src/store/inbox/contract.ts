import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/schema.js';
import type { InboundAttemptOutcome, InboundStatus } from '../values.js';
import type { EditChange } from './edit-change.js';

export type { EditChange } from './edit-change.js';

export type InboundEvent = InferSelectModel<typeof tables.inboundEvents>;
export type InboundEventEdit = InferSelectModel<typeof tables.inboundEventEdits>;
export type InboundAttempt = InferSelectModel<typeof tables.inboundAttempts>;

/** What `recordMany` tells about each stored row. */
export type RecordedEvent = Pick<InboundEvent, 'id' | 'status' | 'duplicates'>;

/** An event to store whose processing job starts `holdSeconds` late (none, or 0: at once). */
export interface HeldEvent extends NewInboundEvent {
  holdSeconds?: number;
}

export interface NewInboundEvent {
  connection: string;
  kind: string;
  /** Business key: closingDocumentCode, or a hash of the canonical stock-regularization payload. */
  dedupeKey: string;
  /** The body exactly as received. */
  payload: string;
  status?: Extract<InboundStatus, 'received' | 'rejected' | 'quarantined'>;
  error?: string | null;
  /** closingDocumentCode, or a regularization's productExternalCode, when readable. */
  businessCode?: string | null;
  /** Why a `quarantined` event cannot be processed as it is. */
  quarantineReason?: string | null;
  requestId?: string | null;
  /** The W3C traceparent of the receipt, when tracing is on: processing continues that trace. */
  traceparent?: string | null;
  at: Date;
}

/** Filters of event lists and counts; they combine with AND. */
export interface InboxFilter {
  connection?: string;
  status?: InboundStatus;
  /** Several statuses (OR); combined with `status` when both are given. */
  statuses?: readonly InboundStatus[];
  kind?: string;
  businessCode?: string;
  /** `receivedFrom <= received_at < receivedTo`. */
  receivedFrom?: Date;
  receivedTo?: Date;
}

export interface InboxListQuery extends InboxFilter {
  /** Newest first; rows with an id below this one. */
  beforeId?: number;
  limit: number;
}

export interface NewInboundEdit {
  eventId: number;
  connection: string;
  actor: string;
  payload: string;
  changes: EditChange[];
  at: Date;
}

export interface NewInboundAttempt {
  eventId: number;
  connection: string;
  outcome: InboundAttemptOutcome;
  error?: string | null;
  at: Date;
}

/** Inbound webhook events: one row per distinct event, repeats counted, never dropped. */
export interface InboxRepo {
  /**
   * Stores the event, or counts a repeat of one already stored under the same key. `duplicate` is
   * true for a repeat; concurrent repeats resolve to exactly one stored row.
   */
  record(input: NewInboundEvent): Promise<{ event: InboundEvent; duplicate: boolean }>;
  /**
   * `record` for several events at once (one statement on Postgres), with the results of recording
   * them one after the other in this order: a key repeated in the batch is a duplicate after its
   * first time. Each `event` is the row as the whole batch leaves it, without its payload (the
   * receiver's hot path has no use for a copy of the body it just sent).
   */
  recordMany(inputs: readonly NewInboundEvent[]): Promise<{ event: RecordedEvent; duplicate: boolean }[]>;
  /**
   * Postgres only: `recordMany` and the processing jobs of what it accepted, written by ONE
   * statement (atomic by itself: no BEGIN/COMMIT, one round trip instead of four). The jobs are
   * those ack-writer.ts's `writeEvents` sends: one `{ eventIds }` job (ids ascending) for the
   * newly stored `received` events that are not held, and one per held event (`holdSeconds`),
   * starting that much later; repeats and rejected or quarantined events get none.
   */
  recordManyWithJobs?(
    inputs: readonly HeldEvent[],
    jobs: JobsInStatement,
  ): Promise<{ event: RecordedEvent; duplicate: boolean }[]>;
  get(id: number): Promise<InboundEvent | undefined>;
  findByKey(connection: string, dedupeKey: string): Promise<InboundEvent | undefined>;
  list(query: InboxListQuery): Promise<InboundEvent[]>;
  /** How many events match (the list's total). */
  count(filter: InboxFilter): Promise<number>;
  /** How many events match, counting no further than `cap` (a list that says "more than N"). */
  countUpTo(filter: InboxFilter, cap: number): Promise<number>;
  /** Ids of the events that match, oldest first (bulk actions). */
  ids(filter: InboxFilter, limit: number): Promise<number[]>;
  /** Counts one processing attempt; returns the new count. */
  recordAttempt(id: number, at: Date): Promise<number>;
  markProcessed(id: number, at: Date): Promise<void>;
  /** The last processing attempt failed for good: status `failed`, the attempt counted. */
  markFailed(id: number, error: string, at: Date): Promise<void>;
  /** Keeps the error of a failed attempt that will be retried (counted); the status does not change. */
  noteError(id: number, error: string, at: Date): Promise<void>;
  /** Puts a failed, quarantined or processed event back to `received` for another processing run. */
  reopen(id: number, at: Date): Promise<boolean>;
  countByStatus(): Promise<Record<InboundStatus, number>>;
  /** Sets status `quarantined` with its reason (only from `received`); false when the event is elsewhere. */
  markQuarantined(id: number, reason: string, at: Date): Promise<boolean>;
  /**
   * Sets status `rejected_by_erp` with the ERP's message in `error` (from `received`, or again from
   * `rejected_by_erp` with the newer message); false when the event is elsewhere (processed meanwhile).
   */
  markRejectedByErp(id: number, message: string, at: Date): Promise<boolean>;
  /** Quarantined events now, per connection and kind. */
  quarantinedCounts(): Promise<{ connection: string; kind: string; n: number }[]>;
  /** Stores an operator correction beside the original payload and adds it to the edit history. */
  addEdit(edit: NewInboundEdit): Promise<InboundEventEdit>;
  /** The edit history of an event, oldest first. */
  editsOf(eventId: number): Promise<InboundEventEdit[]>;
  recordAttemptOutcome(attempt: NewInboundAttempt): Promise<void>;
  /** The processing attempts of an event, oldest first. */
  attemptsOf(eventId: number): Promise<InboundAttempt[]>;
}

/** Jobs written by the caller's statement (see `Queue.jobsInStatement`; declared here, beside the repo that writes them, so that the store needs nothing of the queue). */
export interface JobsInStatement {
  /**
   * An INSERT for the statement's WITH clause: one job per row of `source` (columns `data jsonb`,
   * `start_after timestamptz`), exactly the job `send` would create, RETURNING id. `param` is
   * the placeholder (`$n`) the caller binds to `value`.
   */
  insert(source: string, param: string): string;
  value: string;
  /** Call once the statement has run: wakes this process's idle workers, as a `send` does. */
  written(): void;
}
