import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { ReconciliationItemStatus, ReconciliationStatus, ReconciliationTrigger } from '../values.js';

// Stock reconciliation tables. Column for column the same as src/store/pg/reconciliation-schema.ts
// (checked in src/store/schema-parity.ts).

const ts = (name: string) => integer(name, { mode: 'timestamp_ms' });
const counter = (name: string) => integer(name).notNull().default(0);

export const reconciliationRuns = sqliteTable(
  'reconciliation_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    connection: text('connection').notNull(),
    trigger: text('trigger').$type<ReconciliationTrigger>().notNull(),
    status: text('status').$type<ReconciliationStatus>().notNull(),
    reason: text('reason'),
    attempts: counter('attempts'),
    productsTotal: integer('products_total'),
    productsChecked: counter('products_checked'),
    productsFailed: counter('products_failed'),
    rowsChecked: counter('rows_checked'),
    rowsRechecked: counter('rows_rechecked'),
    driftCount: counter('drift_count'),
    notFoundCount: counter('not_found_count'),
    unsettledCount: counter('unsettled_count'),
    requests: counter('requests'),
    requestedAt: ts('requested_at').notNull(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('reconciliation_runs_connection').on(t.connection, t.status, t.id),
    // Keyset pages of a connection's runs, newest first (the operators' list), without a sort.
    index('reconciliation_runs_list').on(t.connection, t.id),
  ],
);

/** What a run found for a product/lot (drift, not found, unsettled); rows that matched leave none. */
export const reconciliationItems = sqliteTable(
  'reconciliation_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    runId: integer('run_id').notNull(),
    connection: text('connection').notNull(),
    productExternalCode: text('product_external_code').notNull(),
    // '' for products without lots, as in stock_ledger.
    lotCode: text('lot_code').notNull().default(''),
    status: text('status').$type<ReconciliationItemStatus>().notNull(),
    wmsExistence: real('wms_existence'),
    wmsAvailable: real('wms_available'),
    expectedExistence: real('expected_existence'),
    baselineExistence: real('baseline_existence'),
    movements: real('movements'),
    delta: real('delta'),
    observedAt: ts('observed_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('reconciliation_items_key').on(t.runId, t.productExternalCode, t.lotCode)],
);

/**
 * The baseline per product/lot: the WMS's existence as of `as_of` (when the stock request that
 * produced it was sent), written at `taken_at`. Expected figures = existence + ledger movements
 * timed after `as_of`, or learnt (created) after `taken_at`.
 */
export const reconciliationSnapshots = sqliteTable(
  'reconciliation_snapshots',
  {
    connection: text('connection').notNull(),
    productExternalCode: text('product_external_code').notNull(),
    lotCode: text('lot_code').notNull().default(''),
    existence: real('existence').notNull(),
    available: real('available'),
    asOf: ts('as_of').notNull(),
    takenAt: ts('taken_at').notNull(),
    runId: integer('run_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.connection, t.productExternalCode, t.lotCode] })],
);
