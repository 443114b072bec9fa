import type { InferSelectModel } from 'drizzle-orm';
import type * as tables from '../sqlite/schema.js';

export type LedgerMovement = InferSelectModel<typeof tables.stockLedger>;

export interface NewLedgerMovement {
  connection: string;
  productExternalCode: string;
  /** null or '' when the product is not lot-tracked. */
  lotCode: string | null;
  warehouse: string | null;
  quantity: number;
  movementTime: Date;
  source: string;
  dedupeKey: string;
  sourceEventId?: number | null;
  at: Date;
}

export interface LedgerTotal {
  productExternalCode: string;
  lotCode: string;
  quantity: number;
}

/** Stock movements learnt from webhooks (and reconciliation), per product and lot. */
export interface LedgerRepo {
  /** Inserts the movements not already recorded under their dedupe key; returns how many were new. */
  record(movements: NewLedgerMovement[]): Promise<number>;
  /** Net quantity per product and lot of the movements with `from < movementTime <= to`. */
  totals(connection: string, range: { from?: Date; to?: Date }): Promise<LedgerTotal[]>;
  list(connection: string, query: { productExternalCode?: string; limit: number }): Promise<LedgerMovement[]>;
}
