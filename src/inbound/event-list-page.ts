import type { InboxFilter, Store } from '../store/types.js';
import { type EventSummary, encodeCursor, eventSummary } from './event-views.js';

/** Past this many matches a list says "more than N" instead of counting every one. */
export const COUNT_CAP = 10_000;

export interface CappedEventPage {
  events: EventSummary[];
  /** Events matching the filter, all pages together, up to `COUNT_CAP`. */
  total: number;
  /** More than `total` match (the count stopped at the cap). */
  more: boolean;
  nextCursor: string | null;
}

/**
 * The admin list's page (GET /admin/v1/events: the same rows, summaries and cursor) with a count
 * that stops at `cap`: a browser page shown every few seconds need not count 100,000 index entries
 * to say "more than 10,000 events match". The admin API keeps its exact total.
 */
export async function listEventsCapped(
  store: Store,
  filter: InboxFilter,
  page: { limit: number; beforeId?: number | undefined },
  cap = COUNT_CAP,
): Promise<CappedEventPage> {
  const [rows, counted] = await Promise.all([
    store.inbox.list({ ...filter, limit: page.limit + 1, ...(page.beforeId ? { beforeId: page.beforeId } : {}) }),
    store.inbox.countUpTo(filter, cap + 1),
  ]);
  const events = rows.slice(0, page.limit);
  const more = counted > cap;
  return {
    events: events.map(eventSummary),
    total: more ? cap : counted,
    more,
    nextCursor: rows.length > page.limit ? encodeCursor(events[events.length - 1]!.id) : null,
  };
}
