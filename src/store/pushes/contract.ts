import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/schema.js';
import type { OutboundEntity } from '../values.js';

export type OutboundRecord = InferSelectModel<typeof tables.outboundRecords>;

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
