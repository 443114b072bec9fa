import type { AlertMessageState, AlertPhase } from '../values.js';
import type { AlertGroup, AlertMessage } from './contract.js';

/** A row as either driver returns it: dates as Date (pg) or epoch ms (SQLite), booleans as 0/1 on SQLite. */
export interface RawGroup {
  connection: string;
  kind: string;
  firing: boolean | number;
  sticky: boolean | number;
  cleared: boolean | number;
  pending: number | string;
  total: number | string;
  first_at: Date | number;
  last_at: Date | number;
  notified_at: Date | number | null;
  detail: string;
}

export interface RawMessage {
  id: number | string;
  connection: string;
  kind: string;
  phase: string;
  url: string;
  format: string;
  body: string;
  state: string;
  attempts: number | string;
  next_attempt_at: Date | number;
  last_error: string | null;
  created_at: Date | number;
  sent_at: Date | number | null;
}

const date = (v: Date | number) => (v instanceof Date ? v : new Date(Number(v)));
const dateOrNull = (v: Date | number | null) => (v === null ? null : date(v));

export const groupOf = (r: RawGroup): AlertGroup => ({
  connection: r.connection,
  kind: r.kind,
  firing: Boolean(r.firing),
  sticky: Boolean(r.sticky),
  cleared: Boolean(r.cleared),
  pending: Number(r.pending),
  total: Number(r.total),
  firstAt: date(r.first_at),
  lastAt: date(r.last_at),
  notifiedAt: dateOrNull(r.notified_at),
  detail: r.detail,
});

export const messageOf = (r: RawMessage): AlertMessage => ({
  id: Number(r.id),
  connection: r.connection,
  kind: r.kind,
  phase: r.phase as AlertPhase,
  url: r.url,
  format: r.format,
  body: r.body,
  state: r.state as AlertMessageState,
  attempts: Number(r.attempts),
  nextAttemptAt: date(r.next_attempt_at),
  lastError: r.last_error,
  createdAt: date(r.created_at),
  sentAt: dateOrNull(r.sent_at),
});

/** A message may go once no older message for the same target, connection and kind waits. */
export const IN_ORDER = `NOT EXISTS (SELECT 1 FROM alert_messages o WHERE o.state = 'pending' AND o.url = m.url
  AND o.connection = m.connection AND o.kind = m.kind AND o.id < m.id)`;
