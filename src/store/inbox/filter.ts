import { and, type Column, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { InboxFilter } from './contract.js';

/** The inbound_events columns the list filters read; both dialects' tables have them by these names. */
interface FilterColumns {
  connection: Column;
  status: Column;
  kind: Column;
  businessCode: Column;
  receivedAt: Column;
}

/**
 * True when the filter asks only for statuses other than `processed`: what the partial index
 * inbound_events_open holds, the backlog and the rare statuses an operator looks for.
 */
export function onlyOpen(q: InboxFilter): boolean {
  const statuses = q.statuses ?? (q.status ? [q.status] : undefined);
  return statuses !== undefined && statuses.length > 0 && !statuses.includes('processed');
}

/**
 * The partial index's condition, written as a literal: a bound parameter would not show either
 * planner that the index applies.
 */
export const notProcessed = (t: Pick<FilterColumns, 'status'>) => sql`${t.status} <> 'processed'`;

/**
 * The WHERE of event lists and counts (drizzle's operators are the same on both dialects). A
 * filter on open statuses also says `status <> 'processed'`, the partial index's own condition, so
 * that both planners see that index can answer it.
 */
export function inboxWhere(t: FilterColumns, q: InboxFilter) {
  return and(
    onlyOpen(q) ? notProcessed(t) : undefined,
    q.connection ? eq(t.connection, q.connection) : undefined,
    q.status ? eq(t.status, q.status) : undefined,
    q.statuses ? inArray(t.status, [...q.statuses]) : undefined,
    q.kind ? eq(t.kind, q.kind) : undefined,
    q.businessCode ? eq(t.businessCode, q.businessCode) : undefined,
    q.receivedFrom ? gte(t.receivedAt, q.receivedFrom) : undefined,
    q.receivedTo ? lt(t.receivedAt, q.receivedTo) : undefined,
  );
}

/** Only the time range: what the id span of a range is read with. */
export const receivedWhere = (t: FilterColumns, q: InboxFilter) =>
  inboxWhere(t, {
    ...(q.receivedFrom ? { receivedFrom: q.receivedFrom } : {}),
    ...(q.receivedTo ? { receivedTo: q.receivedTo } : {}),
  });
