import { and, eq, gte, inArray, lt, type Column } from 'drizzle-orm';
import type { InboxFilter } from './types.js';

/** The inbound_events columns the list filters read; both dialects' tables have them by these names. */
interface FilterColumns {
  connection: Column;
  status: Column;
  kind: Column;
  businessCode: Column;
  receivedAt: Column;
}

/** The WHERE of event lists and counts (drizzle's operators are the same on both dialects). */
export function inboxWhere(t: FilterColumns, q: InboxFilter) {
  return and(
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
export const receivedWhere = (t: FilterColumns, q: InboxFilter) => inboxWhere(t, { ...(q.receivedFrom ? { receivedFrom: q.receivedFrom } : {}), ...(q.receivedTo ? { receivedTo: q.receivedTo } : {}) });
