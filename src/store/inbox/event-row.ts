import type { InboundEvent } from './contract.js';

/**
 * inbound_events as raw driver rows, for the hot paths that bypass drizzle on both dialects (the
 * receiver's insert, processing's read): the columns and their mapping in one place. Each driver
 * returns ids and times in its own form (better-sqlite3: numbers and epoch milliseconds; pg: a
 * bigint as a string and Dates), converted by the dialect's binding.
 */
export const EVENT_COLUMNS = `id, connection, kind, dedupe_key, status, payload, error, attempts, duplicates, request_id, received_at,
  last_duplicate_at, processed_at, updated_at, payload_pruned_at, business_code, quarantine_reason, correction, traceparent`;

export interface RawEventRow<Id, Time> {
  id: Id;
  connection: string;
  kind: string;
  dedupe_key: string;
  status: InboundEvent['status'];
  payload: string;
  error: string | null;
  attempts: number;
  duplicates: number;
  request_id: string | null;
  received_at: Time;
  last_duplicate_at: Time | null;
  processed_at: Time | null;
  updated_at: Time;
  payload_pruned_at: Time | null;
  business_code: string | null;
  quarantine_reason: string | null;
  correction: string | null;
  traceparent: string | null;
}

export function eventFromRow<Id, Time>(
  r: RawEventRow<Id, Time>,
  id: (v: Id) => number,
  time: (v: Time) => Date,
): InboundEvent {
  const optional = (v: Time | null) => (v === null ? null : time(v));
  return {
    id: id(r.id),
    connection: r.connection,
    kind: r.kind,
    dedupeKey: r.dedupe_key,
    status: r.status,
    payload: r.payload,
    error: r.error,
    attempts: r.attempts,
    duplicates: r.duplicates,
    requestId: r.request_id,
    receivedAt: time(r.received_at),
    lastDuplicateAt: optional(r.last_duplicate_at),
    processedAt: optional(r.processed_at),
    updatedAt: time(r.updated_at),
    payloadPrunedAt: optional(r.payload_pruned_at),
    businessCode: r.business_code,
    quarantineReason: r.quarantine_reason,
    correction: r.correction,
    traceparent: r.traceparent,
  };
}
