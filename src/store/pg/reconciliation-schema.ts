import {
  bigint,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ReconciliationItemStatus, ReconciliationStatus, ReconciliationTrigger } from '../values.js';

// Mirrors src/store/sqlite/reconciliation-schema.ts column for column (checked in src/store/schema-parity.ts).

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const counter = (name: string) => integer(name).notNull().default(0);

export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
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

export const reconciliationItems = pgTable(
  'reconciliation_items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    connection: text('connection').notNull(),
    productExternalCode: text('product_external_code').notNull(),
    lotCode: text('lot_code').notNull().default(''),
    status: text('status').$type<ReconciliationItemStatus>().notNull(),
    wmsExistence: doublePrecision('wms_existence'),
    wmsAvailable: doublePrecision('wms_available'),
    expectedExistence: doublePrecision('expected_existence'),
    baselineExistence: doublePrecision('baseline_existence'),
    movements: doublePrecision('movements'),
    delta: doublePrecision('delta'),
    observedAt: ts('observed_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('reconciliation_items_key').on(t.runId, t.productExternalCode, t.lotCode)],
);

export const reconciliationSnapshots = pgTable(
  'reconciliation_snapshots',
  {
    connection: text('connection').notNull(),
    productExternalCode: text('product_external_code').notNull(),
    lotCode: text('lot_code').notNull().default(''),
    existence: doublePrecision('existence').notNull(),
    available: doublePrecision('available'),
    asOf: ts('as_of').notNull(),
    takenAt: ts('taken_at').notNull(),
    runId: bigint('run_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.connection, t.productExternalCode, t.lotCode] })],
);
