import type { Store } from '../../store/types.js';
import { type FeedEvent, toFeedEvent } from './read.js';

export interface LatestFeedPage {
  /** Newest first, each exactly as the ERP reads it from GET /erp/v1/events. */
  events: FeedEvent[];
  /** Pass as `before` for older events; null when there are none. */
  nextBefore: number | null;
}

/** The connection's latest feed events, newest first (the ERP reads them oldest first, after a cursor). */
export async function latestFeed(
  store: Store,
  input: { connection: string; before?: number | undefined; limit: number },
): Promise<LatestFeedPage> {
  const rows = await store.readModels.feedBefore(input.connection, input.before, input.limit + 1);
  const page = rows.slice(0, input.limit);
  return { events: page.map(toFeedEvent), nextBefore: rows.length > input.limit ? page.at(-1)!.id : null };
}
