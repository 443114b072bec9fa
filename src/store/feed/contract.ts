import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/schema.js';
import type { FeedEntryType } from '../values.js';

export type FeedEntry = InferSelectModel<typeof tables.feedEntries>;

export interface NewFeedEntry {
  connection: string;
  type: FeedEntryType;
  /** Makes appending idempotent: a second append with the same key returns the first row. */
  dedupeKey: string;
  sourceEventId?: number | null;
  data: Record<string, unknown>;
  /** The trace of the work that wrote it, when tracing is on: its ERP deliveries continue it. */
  traceparent?: string | null;
  at: Date;
}

/** The ERP feed: append-only, id = cursor, ids committed in increasing order. */
export interface FeedRepo {
  append(input: NewFeedEntry): Promise<{ feedEntry: FeedEntry; created: boolean }>;
  listAfter(connection: string, afterId: number, limit: number): Promise<FeedEntry[]>;
  get(connection: string, id: number): Promise<FeedEntry | undefined>;
  /** The feed entries an inbound event produced. */
  bySourceEvent(eventId: number): Promise<FeedEntry[]>;
}
