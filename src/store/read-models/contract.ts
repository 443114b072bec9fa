import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/schema.js';
import type { InboundStatus, PushEntity, PushState } from '../values.js';

// The row types as types.ts defines them, inferred here too so the two files do not import each other.
type FeedEntry = InferSelectModel<typeof tables.feedEntries>;
type PushRecord = InferSelectModel<typeof tables.wmsPushes>;

/** How many inbound events of one kind are in one status. */
export interface InboundCount {
  kind: string;
  status: InboundStatus;
  n: number;
}

/** How many WMS pushes of one entity are in one state. */
export interface PushCount {
  entity: PushEntity;
  state: PushState;
  n: number;
}

/** An WMS push without its payload (lists show the state, not the body). */
export type PushesSummary = Omit<PushRecord, 'payload'>;

export interface PushesPageQuery {
  connection: string;
  entity: PushEntity;
  state?: PushState;
  /** Newest first: records with an id below this one. */
  beforeId?: number;
  limit: number;
}

/**
 * Read models for operators (the admin API and the console): counts and keyset pages, each
 * served by an index so that a page costs the same with ten rows or ten million.
 */
export interface ReadModelsRepo {
  /** The connection's inbound events received at or after `since`, counted by kind and status. */
  inboundCounts(connection: string, since: Date): Promise<InboundCount[]>;
  /** The connection's WMS pushes counted by entity and state. */
  pushCounts(connection: string): Promise<PushCount[]>;
  /** A page of one entity's records (of one state, or all), newest first. */
  pushesPage(query: PushesPageQuery): Promise<PushesSummary[]>;
  /** The connection's feed newest first: feed entries with an id below `beforeId` (all when undefined). */
  feedBefore(connection: string, beforeId: number | undefined, limit: number): Promise<FeedEntry[]>;
}
