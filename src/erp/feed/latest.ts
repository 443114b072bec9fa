import type { Store } from '../../store/types.js';
import { type ErpFeedEntry, toErpFeedEntry } from './read.js';

export interface LatestFeedPage {
  /** Newest first, each exactly as the ERP reads it from GET /erp/v1/feed. */
  entries: ErpFeedEntry[];
  /** Pass as `before` for older entries; null when there are none. */
  nextBefore: number | null;
}

/** The connection's latest feed entries, newest first (the ERP reads them oldest first, after a cursor). */
export async function latestFeed(
  store: Store,
  input: { connection: string; before?: number | undefined; limit: number },
): Promise<LatestFeedPage> {
  const rows = await store.readModels.feedBefore(input.connection, input.before, input.limit + 1);
  const page = rows.slice(0, input.limit);
  return { entries: page.map(toErpFeedEntry), nextBefore: rows.length > input.limit ? page.at(-1)!.id : null };
}
