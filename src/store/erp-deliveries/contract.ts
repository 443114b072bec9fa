import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/delivery-schema.js';
import type { feedEntries } from '../sqlite/schema.js';
import type { DeliveryAttemptOutcome, DeliveryStatus, FeedEntryType } from '../values.js';

export type Delivery = InferSelectModel<typeof tables.erpDeliveries>;
export type DeliveryAttempt = InferSelectModel<typeof tables.erpDeliveryAttempts>;
export type DeliveryBreaker = InferSelectModel<typeof tables.erpDeliveryBreakers>;
/** A feed row (the same type as types.ts's `FeedEntry`, named here without importing it: no cycle). */
type FeedEntry = InferSelectModel<typeof feedEntries>;

export interface NewDelivery {
  connection: string;
  feedEntryId: number;
  type: FeedEntryType;
  orderKey: string;
  feedAt: Date;
}

/** A delivery leased to one sender, with the feed event it carries (undefined when pruned). */
export interface ClaimedDelivery {
  delivery: Delivery;
  event: FeedEntry | undefined;
}

export interface ClaimQuery {
  connections: readonly string[];
  owner: string;
  now: Date;
  leaseUntil: Date;
  limit: number;
}

/** One finished attempt, as the sender saw it. */
export interface DeliveryResult {
  id: number;
  outcome: DeliveryAttemptOutcome;
  /** When `outcome` is `retry`. */
  nextAttemptAt?: Date;
  status: number | null;
  latencyMs: number;
  response: string | null;
  error: string | null;
  /** A breaker probe: recorded, but neither counted as an attempt nor moving the schedule on failure. */
  probe: boolean;
  at: Date;
}

/** Filters of delivery lists, counts and bulk resends; they combine with AND. */
export interface DeliveryFilter {
  connection?: string;
  status?: DeliveryStatus;
  type?: FeedEntryType;
  orderKey?: string;
  /** `createdFrom <= created_at < createdTo`. */
  createdFrom?: Date;
  createdTo?: Date;
}

export interface DeliveryListQuery extends DeliveryFilter {
  /** Newest first; rows with an id below this one. */
  beforeId?: number;
  limit: number;
}

export interface BreakerRow {
  state: DeliveryBreaker['state'];
  failures: number;
  openedAt: Date | null;
  nextProbeAt: Date | null;
}

/** ERP deliveries: each feed entry sent to a connection's ERP webhook, with its attempts, cursors and circuit breakers. */
export interface ErpDeliveriesRepo {
  /**
   * The connection's dispatch cursor (0 before the first dispatch). Inside a transaction on
   * Postgres it locks the cursor row until commit, so two dispatchers never enqueue the same range.
   */
  lockCursor(connection: string, at: Date): Promise<number>;
  /** Adds the deliveries (a repeat of one already there is skipped) and moves the cursor; returns how many were new. */
  enqueue(connection: string, rows: readonly NewDelivery[], cursor: number, at: Date): Promise<number>;
  /**
   * Leases up to `limit` due pending deliveries of these connections to `owner`. A delivery is
   * never leased while an earlier pending one of the same connection and order key exists, leased
   * or waiting for its retry: that is what keeps each key in feed order.
   */
  claim(query: ClaimQuery): Promise<ClaimedDelivery[]>;
  /**
   * Marks the head of each key that has pending deliveries but none marked, and returns how many
   * keys it mended. Every path of this version keeps the marks; this mends what another version
   * did (a process from before the marks, still running during a rolling deploy, adds and finishes
   * deliveries without them), which would otherwise leave a key unclaimed for good.
   */
  repairHeads(): Promise<number>;
  /** Leases the oldest claimable delivery of a connection whatever its schedule (a breaker probe). */
  claimProbe(
    query: Omit<ClaimQuery, 'connections' | 'limit'> & { connection: string },
  ): Promise<ClaimedDelivery | undefined>;
  /** Records attempts and their effects, each only while `owner` still holds the lease. */
  finish(owner: string, results: readonly DeliveryResult[]): Promise<void>;
  get(id: number): Promise<Delivery | undefined>;
  attemptsOf(id: number): Promise<DeliveryAttempt[]>;
  list(query: DeliveryListQuery): Promise<Delivery[]>;
  count(filter: DeliveryFilter): Promise<number>;
  /**
   * Deliveries in one of `statuses` that match, back to pending on a fresh schedule (attempts 0),
   * due now; at most `limit`, oldest first. Returns the ids re-sent.
   */
  resend(
    filter: DeliveryFilter & { ids?: readonly number[] },
    at: Date,
    limit: number,
    statuses: readonly DeliveryStatus[],
  ): Promise<number[]>;
  /** Pending deliveries of a connection waiting for a retry become due now (its endpoint is back). */
  rescheduleNow(connection: string, at: Date): Promise<number>;
  breakers(): Promise<DeliveryBreaker[]>;
  /** Read-modify-write of one breaker, atomic across processes; returns the row written. */
  updateBreaker(
    connection: string,
    step: (current: BreakerRow | undefined) => BreakerRow,
    at: Date,
  ): Promise<BreakerRow>;
  /** Takes the right to send the next probe: true for exactly one caller while the breaker is open and its probe is due. */
  takeProbe(connection: string, now: Date, nextProbeAt: Date): Promise<boolean>;
  /** Deliveries per connection and status, and the oldest pending one's feed time; for /metrics. */
  summary(): Promise<{ connection: string; status: DeliveryStatus; n: number }[]>;
  /** Deletes delivered and dead deliveries last changed before `before`, and attempts older than it. */
  prune(before: Date, dryRun: boolean): Promise<{ deliveries: number; attempts: number }>;
}
