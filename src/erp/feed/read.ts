import type { Confirmation, Store } from '../../store/types.js';
import type { ConfirmationType } from '../../store/values.js';

/** One event of the ERP feed, as the ERP reads it. */
export interface FeedEvent {
  /** The cursor: increasing, never reused. */
  id: number;
  type: ConfirmationType;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface FeedPage {
  events: FeedEvent[];
  /** Pass as `after` to get the following events; equals `after` when there are none yet. */
  next: number;
}

export function toFeedEvent(c: Confirmation): FeedEvent {
  return { id: c.id, type: c.type, createdAt: c.createdAt.toISOString(), data: c.data };
}

/** The connection's confirmations after the cursor, oldest first. */
export async function listFeed(
  store: Store,
  input: { connection: string; after: number; limit: number },
): Promise<FeedPage> {
  const rows = await store.confirmations.listAfter(input.connection, input.after, input.limit);
  return { events: rows.map(toFeedEvent), next: rows.at(-1)?.id ?? input.after };
}

export async function getFeedEvent(
  store: Store,
  input: { connection: string; id: number },
): Promise<FeedEvent | undefined> {
  const row = await store.confirmations.get(input.connection, input.id);
  return row ? toFeedEvent(row) : undefined;
}
