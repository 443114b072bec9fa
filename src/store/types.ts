import type { InferSelectModel } from 'drizzle-orm';
import type { DeliveriesRepo } from './delivery-types.js';
import type { EditChange } from './edit-change.js';
import type { LimitBudgetRepo } from './limit-budget-types.js';
import type { ReadModelsRepo } from './read-model-types.js';
import type { ReconciliationRepo } from './reconciliation-types.js';
import type { RetentionRepo } from './retention-types.js';
import type * as tables from './sqlite/schema.js';
import type { ConfirmationType, InboundAttemptOutcome, InboundStatus, OutboundEntity } from './values.js';

export type { EditChange } from './edit-change.js';

export type InboundEvent = InferSelectModel<typeof tables.inboundEvents>;
export type OutboundRecord = InferSelectModel<typeof tables.outboundRecords>;
export type Confirmation = InferSelectModel<typeof tables.confirmations>;
export type LedgerMovement = InferSelectModel<typeof tables.stockLedger>;
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

export interface OutboundUpsert {
  connection: string;
  entity: OutboundEntity;
  externalCode: string;
  payload: Record<string, unknown>;
  payloadHash: string;
  at: Date;
}

/** What the ERP asked to exist in the WMS, with its sync state. */
export interface OutboxRepo {
  /**
   * Records the desired payload. `changed` is false when it equals what is already stored and
   * that was synced or is pending (nothing to push); a changed or failed record goes to pending.
   */
  upsert(input: OutboundUpsert): Promise<{ record: OutboundRecord; changed: boolean }>;
  /**
   * `upsert` for many records at once (one or two statements on Postgres instead of two per
   * record), results in input order. The inputs' keys must be distinct.
   */
  upsertMany(inputs: readonly OutboundUpsert[]): Promise<{ record: OutboundRecord; changed: boolean }[]>;
  get(connection: string, entity: OutboundEntity, externalCode: string): Promise<OutboundRecord | undefined>;
  getById(id: number): Promise<OutboundRecord | undefined>;
  recordAttempt(id: number, at: Date): Promise<number>;
  /**
   * Marks synced with the hash that was pushed (a newer payload stored meanwhile stays pending) and,
   * with `owner`, gives that owner's push lease back in the same write: the end of a push, one row
   * version and one statement per item instead of two. Returns the record as it is now.
   */
  markSynced(id: number, pushedHash: string, at: Date, owner?: string): Promise<OutboundRecord | undefined>;
  /**
   * Marks failed with the error. With `forHash`, only while that payload is still the one stored:
   * a newer payload that arrived during the push stays pending.
   */
  markFailed(id: number, error: unknown, at: Date, forHash?: string): Promise<void>;
  /** Back to pending (operator retry); false when there is no such record. */
  markPending(id: number, at: Date): Promise<boolean>;
  list(query: {
    connection: string;
    entity?: OutboundEntity;
    state?: OutboundRecord['state'];
    limit: number;
    afterId?: number;
  }): Promise<OutboundRecord[]>;
  /** The records of these codes that exist (in no particular order). */
  getMany(connection: string, entity: OutboundEntity, externalCodes: readonly string[]): Promise<OutboundRecord[]>;
  /** Keeps the last error (e.g. a retryable one, before the next attempt) without changing the state. */
  noteError(id: number, error: unknown, at: Date): Promise<void>;
  /**
   * Takes the push lease of a record for `owner` until `until`, when nobody holds it or the last
   * holder's lease ran out; returns the record as it is now, or undefined when the lease is held.
   */
  claim(id: number, owner: string, until: Date, at: Date): Promise<OutboundRecord | undefined>;
  /** Gives the lease back (only `owner`'s); returns the record as it is now. */
  release(id: number, owner: string): Promise<OutboundRecord | undefined>;
  /** How many of these records are in each state. */
  summarize(ids: readonly number[]): Promise<Record<OutboundRecord['state'], number>>;
  /**
   * Makes `targets` the references a record waits for: rows for other references are removed, new
   * ones added, rows kept keep their time. Returns when the oldest remaining wait began.
   */
  setWaits(recordId: number, connection: string, targets: readonly OutboundRef[], at: Date): Promise<Date | undefined>;
  waitsOf(recordId: number): Promise<OutboundWait[]>;
  /** Removes every wait on this reference and returns the ids of the records that waited for it. */
  releaseWaiters(connection: string, target: OutboundRef): Promise<number[]>;
  /** Whether any record waits on this reference (one cheap read: most pushes have no waiter). */
  hasWaiters(connection: string, target: OutboundRef): Promise<boolean>;
  /**
   * Records per state (every connection), and when the pending record that changed least recently
   * last changed (stored, attempted, failed an attempt); null when none is pending. For /metrics.
   */
  stateSummary(): Promise<{ counts: Record<OutboundRecord['state'], number>; oldestPendingChange: Date | null }>;
}

export interface OutboundRef {
  entity: OutboundEntity;
  externalCode: string;
}

export interface OutboundWait extends OutboundRef {
  since: Date;
}

export interface NewConfirmation {
  connection: string;
  type: ConfirmationType;
  /** Makes appending idempotent: a second append with the same key returns the first row. */
  dedupeKey: string;
  sourceEventId?: number | null;
  data: Record<string, unknown>;
  at: Date;
}

/** The ERP feed: append-only, id = cursor, ids committed in increasing order. */
export interface ConfirmationsRepo {
  append(input: NewConfirmation): Promise<{ confirmation: Confirmation; created: boolean }>;
  listAfter(connection: string, afterId: number, limit: number): Promise<Confirmation[]>;
  get(connection: string, id: number): Promise<Confirmation | undefined>;
  /** The feed entries an inbound event produced. */
  bySourceEvent(eventId: number): Promise<Confirmation[]>;
}

export interface NewLedgerMovement {
  connection: string;
  productExternalCode: string;
  /** null or '' when the product is not lot-tracked. */
  lotCode: string | null;
  warehouse: string | null;
  quantity: number;
  movementTime: Date;
  source: string;
  dedupeKey: string;
  sourceEventId?: number | null;
  at: Date;
}

export interface LedgerTotal {
  productExternalCode: string;
  lotCode: string;
  quantity: number;
}

/** Stock movements learnt from webhooks (and reconciliation), per product and lot. */
export interface LedgerRepo {
  /** Inserts the movements not already recorded under their dedupe key; returns how many were new. */
  record(movements: NewLedgerMovement[]): Promise<number>;
  /** Net quantity per product and lot of the movements with `from < movementTime <= to`. */
  totals(connection: string, range: { from?: Date; to?: Date }): Promise<LedgerTotal[]>;
  list(connection: string, query: { productExternalCode?: string; limit: number }): Promise<LedgerMovement[]>;
}

/** One event's processing outcome, as `ProcessingRepo.complete` records it. */
export interface ProcessedEvent {
  eventId: number;
  connection: string;
  movements: NewLedgerMovement[];
  confirmation: NewConfirmation;
}

export interface QuarantinedEvent {
  eventId: number;
  connection: string;
  reason: string;
}

/**
 * The processing path's statements, for many events at once and prepared once (processing runs
 * them for every event the receiver acknowledges, beside the receiver, in the same process).
 */
export interface ProcessingRepo {
  /**
   * Those of these events still to be processed (`received` or `failed`), in id order. A read: an
   * attempt is counted (`attempts`) with its outcome, by `complete`, `quarantine`, or the
   * `markFailed`/`noteError` of a failed one. Writing the count here cost every event a rewrite of
   * its row, and on SQLite a commit of its own, before the one that records the outcome.
   */
  claim(ids: readonly number[]): Promise<InboundEvent[]>;
  /** The stored payloads of those of these documents the ERP pushed (receptions compare against their lines). */
  documents(
    connection: string,
    externalCodes: readonly string[],
  ): Promise<{ externalCode: string; payload: Record<string, unknown> }[]>;
  /**
   * Records each event's outcome: its ledger movements (those not recorded yet), status
   * `processed`, a `processed` attempt, and its confirmation (appended once per dedupe key: the id
   * of the one appended, or of the one already there, `created` false). Call
   * it on a transaction's repos: on Postgres it takes the feed-order lock, held until the commit.
   * Results in input order.
   */
  complete(events: readonly ProcessedEvent[], at: Date): Promise<{ confirmationId: number; created: boolean }[]>;
  /** Quarantines each event still `received`, with a `quarantined` attempt; true for those it quarantined. */
  quarantine(events: readonly QuarantinedEvent[], at: Date): Promise<boolean[]>;
}

export interface Repos {
  inbox: InboxRepo;
  processing: ProcessingRepo;
  outbox: OutboxRepo;
  confirmations: ConfirmationsRepo;
  ledger: LedgerRepo;
  reconciliation: ReconciliationRepo;
  /** Pruning by age (docs/operations.md); used by `wms-sync prune` and the daily prune job. */
  retention: RetentionRepo;
  /** Counts and keyset pages for operators (admin API, console). */
  readModels: ReadModelsRepo;
  /** ERP deliveries: the push outbox, attempts, cursors, breakers. */
  deliveries: DeliveriesRepo;
}

/** The connection behind a transaction, for adapters (the queue) that must write in it too. */
export type TxHandle =
  | { dialect: 'sqlite'; db: import('better-sqlite3').Database }
  | { dialect: 'postgres'; client: import('pg').PoolClient };

export interface StoreTx extends Repos {
  readonly handle: TxHandle;
  /** Runs after the transaction commits (never after a rollback); e.g. to wake a local worker. */
  afterCommit(fn: () => void): void;
}

export interface Store extends Repos {
  readonly dialect: 'sqlite' | 'postgres';
  /** The adaptive WMS concurrency limits shared by the processes on this database. */
  readonly limitBudgets: LimitBudgetRepo;
  /**
   * Runs `fn` in one transaction: everything written through `tx` (and jobs sent with `{ tx }`)
   * commits together or not at all. Use only `tx` inside `fn`; the store itself would wait for the
   * transaction to end (SQLite) or write outside it (Postgres).
   */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** Applies pending migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `listener` with the connection after a transaction that appended to its feed commits
   * (in this process); returns the unsubscribe. How the delivery room hears of new events at once.
   */
  onFeedAppended(listener: (connection: string) => void): () => void;
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
