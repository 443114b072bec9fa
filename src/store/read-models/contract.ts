import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/schema.js';
import type { InboundStatus, OutboundEntity, OutboundState } from '../values.js';

// The row types as types.ts defines them, inferred here too so the two files do not import each other.
type Confirmation = InferSelectModel<typeof tables.confirmations>;
type OutboundRecord = InferSelectModel<typeof tables.outboundRecords>;

/** How many inbound events of one kind are in one status. */
export interface InboundCount {
  kind: string;
  status: InboundStatus;
  n: number;
}

/** How many outbound records of one entity are in one state. */
export interface OutboundCount {
  entity: OutboundEntity;
  state: OutboundState;
  n: number;
}

/** An outbound record without its payload (lists show the state, not the body). */
export type OutboundSummary = Omit<OutboundRecord, 'payload'>;

export interface OutboundPageQuery {
  connection: string;
  entity: OutboundEntity;
  state?: OutboundState;
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
  /** The connection's outbound records counted by entity and state. */
  outboundCounts(connection: string): Promise<OutboundCount[]>;
  /** A page of one entity's records (of one state, or all), newest first. */
  outboundPage(query: OutboundPageQuery): Promise<OutboundSummary[]>;
  /** The connection's feed newest first: confirmations with an id below `beforeId` (all when undefined). */
  feedBefore(connection: string, beforeId: number | undefined, limit: number): Promise<Confirmation[]>;
}
