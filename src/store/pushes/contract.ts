import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/schema.js';
import type { PushEntity } from '../values.js';

export type PushRecord = InferSelectModel<typeof tables.wmsPushes>;

export interface PushUpsert {
  connection: string;
  entity: PushEntity;
  externalCode: string;
  payload: Record<string, unknown>;
  payloadHash: string;
  at: Date;
}

/** What the ERP asked to exist in the WMS, with its sync state. */
export interface PushesRepo {
  /**
   * Records the desired payload. `changed` is false when it equals what is already stored and
   * that was synced or is pending (nothing to push); a changed or failed record goes to pending.
   */
  upsert(input: PushUpsert): Promise<{ record: PushRecord; changed: boolean }>;
  /**
   * `upsert` for many records at once (one or two statements on Postgres instead of two per
   * record), results in input order. The inputs' keys must be distinct.
   */
  upsertMany(inputs: readonly PushUpsert[]): Promise<{ record: PushRecord; changed: boolean }[]>;
  get(connection: string, entity: PushEntity, externalCode: string): Promise<PushRecord | undefined>;
  getById(id: number): Promise<PushRecord | undefined>;
  recordAttempt(id: number, at: Date): Promise<number>;
  /**
   * Marks synced with the hash that was pushed (a newer payload stored meanwhile stays pending) and,
   * with `owner`, gives that owner's push lease back in the same write: the end of a push, one row
   * version and one statement per item instead of two. Returns the record as it is now.
   */
  markSynced(id: number, pushedHash: string, at: Date, owner?: string): Promise<PushRecord | undefined>;
  /**
   * Marks failed with the error. With `forHash`, only while that payload is still the one stored:
   * a newer payload that arrived during the push stays pending.
   */
  markFailed(id: number, error: unknown, at: Date, forHash?: string): Promise<void>;
  /** Back to pending (operator retry); false when there is no such record. */
  markPending(id: number, at: Date): Promise<boolean>;
  list(query: {
    connection: string;
    entity?: PushEntity;
    state?: PushRecord['state'];
    limit: number;
    afterId?: number;
  }): Promise<PushRecord[]>;
  /** The records of these codes that exist (in no particular order). */
  getMany(connection: string, entity: PushEntity, externalCodes: readonly string[]): Promise<PushRecord[]>;
  /** Keeps the last error (e.g. a retryable one, before the next attempt) without changing the state. */
  noteError(id: number, error: unknown, at: Date): Promise<void>;
  /**
   * Takes the push lease of a record for `owner` until `until`, when nobody holds it or the last
   * holder's lease ran out; returns the record as it is now, or undefined when the lease is held.
   */
  claim(id: number, owner: string, until: Date, at: Date): Promise<PushRecord | undefined>;
  /** Gives the lease back (only `owner`'s); returns the record as it is now. */
  release(id: number, owner: string): Promise<PushRecord | undefined>;
  /** How many of these records are in each state. */
  summarize(ids: readonly number[]): Promise<Record<PushRecord['state'], number>>;
  /**
   * Makes `targets` the references a record waits for: rows for other references are removed, new
   * ones added, rows kept keep their time. Returns when the oldest remaining wait began.
   */
  setWaits(recordId: number, connection: string, targets: readonly PushRef[], at: Date): Promise<Date | undefined>;
  waitsOf(recordId: number): Promise<PushWait[]>;
  /** Removes every wait on this reference and returns the ids of the records that waited for it. */
  releaseWaiters(connection: string, target: PushRef): Promise<number[]>;
  /** Whether any record waits on this reference (one cheap read: most pushes have no waiter). */
  hasWaiters(connection: string, target: PushRef): Promise<boolean>;
  /**
   * Records per state (every connection), and when the pending record that changed least recently
   * last changed (stored, attempted, failed an attempt); null when none is pending. For /metrics.
   */
  stateSummary(): Promise<{ counts: Record<PushRecord['state'], number>; oldestPendingChange: Date | null }>;
}

export interface PushRef {
  entity: PushEntity;
  externalCode: string;
}

export interface PushWait extends PushRef {
  since: Date;
}
