import type { InboundEvent } from '../types.js';

/**
 * inbound_events as raw better-sqlite3 rows, for the hot paths that bypass drizzle (the receiver's
 * insert, processing's read): the columns and their mapping, in one place.
 */
export const EVENT_COLUMNS = `id, connection, kind, dedupe_key, status, payload, error, attempts, duplicates, request_id, received_at,
  last_duplicate_at, processed_at, updated_at, payload_pruned_at, business_code, quarantine_reason, correction`;

export interface EventRow {
  id: number;
  connection: string;
  kind: string;
  dedupe_key: string;
  status: InboundEvent['status'];
  payload: string;
  error: string | null;
  attempts: number;
  duplicates: number;
  request_id: string | null;
  received_at: number;
  last_duplicate_at: number | null;
  processed_at: number | null;
  updated_at: number;
  payload_pruned_at: number | null;
  business_code: string | null;
  quarantine_reason: string | null;
  correction: string | null;
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

export function toEvent(r: EventRow): InboundEvent {
  return {
    id: r.id,
    connection: r.connection,
    kind: r.kind,
    dedupeKey: r.dedupe_key,
    status: r.status,
    payload: r.payload,
    error: r.error,
    attempts: r.attempts,
    duplicates: r.duplicates,
    requestId: r.request_id,
    receivedAt: new Date(r.received_at),
    lastDuplicateAt: date(r.last_duplicate_at),
    processedAt: date(r.processed_at),
    updatedAt: new Date(r.updated_at),
    payloadPrunedAt: date(r.payload_pruned_at),
    businessCode: r.business_code,
    quarantineReason: r.quarantine_reason,
    correction: r.correction,
  };
}

