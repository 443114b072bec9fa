import type { NewFeedEntry } from '../feed/contract.js';
import type { InboundEvent } from '../inbox/contract.js';
import type { NewLedgerMovement } from '../ledger/contract.js';

/** One event's processing outcome, as `ProcessingRepo.complete` records it. */
export interface ProcessedEvent {
  eventId: number;
  connection: string;
  movements: NewLedgerMovement[];
  feedEntry: NewFeedEntry;
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
   * `processed`, a `processed` attempt, and its feed entry (appended once per dedupe key: the id
   * of the one appended, or of the one already there, `created` false). Call
   * it on a transaction's repos: on Postgres it takes the feed-order lock, held until the commit.
   * Results in input order.
   */
  complete(events: readonly ProcessedEvent[], at: Date): Promise<{ feedEntryId: number; created: boolean }[]>;
  /** Quarantines each event still `received`, with a `quarantined` attempt; true for those it quarantined. */
  quarantine(events: readonly QuarantinedEvent[], at: Date): Promise<boolean[]>;
}
