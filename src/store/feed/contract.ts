import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/schema.js';
import type { ConfirmationType } from '../values.js';

export type Confirmation = InferSelectModel<typeof tables.confirmations>;

export interface NewConfirmation {
  connection: string;
  type: ConfirmationType;
  /** Makes appending idempotent: a second append with the same key returns the first row. */
  dedupeKey: string;
  sourceEventId?: number | null;
  data: Record<string, unknown>;
  at: Date;
}

/** The ERP feed: append-only, id = cursor, ids committed in increasing order. */
export interface ConfirmationsRepo {
  append(input: NewConfirmation): Promise<{ confirmation: Confirmation; created: boolean }>;
  listAfter(connection: string, afterId: number, limit: number): Promise<Confirmation[]>;
  get(connection: string, id: number): Promise<Confirmation | undefined>;
  /** The feed entries an inbound event produced. */
  bySourceEvent(eventId: number): Promise<Confirmation[]>;
}
