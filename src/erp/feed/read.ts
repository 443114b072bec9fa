import type { FeedEntry, Store } from '../../store/types.js';
import type { FeedEntryType } from '../../store/values.js';

/** One entry of the ERP feed, as the ERP reads it. */
export interface ErpFeedEntry {
  /** The cursor: increasing, never reused. */
  id: number;
  type: FeedEntryType;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface FeedPage {
  entries: ErpFeedEntry[];
  /** Pass as `after` to get the following entries; equals `after` when there are none yet. */
  next: number;
}

export function toErpFeedEntry(c: FeedEntry): ErpFeedEntry {
  return { id: c.id, type: c.type, createdAt: c.createdAt.toISOString(), data: c.data };
}

/** The connection's feed entries after the cursor, oldest first. */
export async function listFeed(
  store: Store,
  input: { connection: string; after: number; limit: number },
): Promise<FeedPage> {
  const rows = await store.feed.listAfter(input.connection, input.after, input.limit);
  return { entries: rows.map(toErpFeedEntry), next: rows.at(-1)?.id ?? input.after };
}

export async function getFeedEntry(
  store: Store,
  input: { connection: string; id: number },
): Promise<ErpFeedEntry | undefined> {
  const row = await store.feed.get(input.connection, input.id);
  return row ? toErpFeedEntry(row) : undefined;
}
