import { z } from '@hono/zod-openapi';
import {
  RECONCILIATION_ITEM_STATUSES,
  RECONCILIATION_STATUSES,
  RECONCILIATION_TRIGGERS,
  type ReconciliationItem,
  type ReconciliationRun,
} from '../store/index.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const figure = z.number().nullable();

export const reconciliationItemSchema = z
  .object({
    id: z.int().openapi({ description: 'Cursor for `itemsAfter`' }),
    productExternalCode: z.string(),
    lotCode: z.string().nullable().openapi({ description: 'null for a product without lots' }),
    status: z.enum(RECONCILIATION_ITEM_STATUSES).openapi({
      description:
        'drift: confirmed and sent to the ERP as stock.drift; not_found: the WMS answered 404 for the product; unsettled: still moving after every recheck (no drift reported)',
    }),
    wms: z
      .object({ existence: figure, available: figure })
      .nullable()
      .openapi({ description: 'The WMS figures (endpoint 7); null for not_found' }),
    expected: z.object({ existence: figure, baseline: figure, movements: figure }).nullable().openapi({
      description: 'existence = baseline (last reconciled figure, null if never) + movements learnt since',
    }),
    delta: figure.openapi({
      description: 'WMS existence minus expected existence: what the ERP must apply',
      example: -3,
    }),
    observedAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'When the stock request behind the WMS figures was sent' }),
  })
  .openapi('ReconciliationItem');

export const reconciliationRunSchema = z
  .object({
    id: z.int().openapi({ example: 12 }),
    connection: z.string(),
    trigger: z.enum(RECONCILIATION_TRIGGERS),
    status: z.enum(RECONCILIATION_STATUSES),
    reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why a run is partial or failed (or why an attempt was retried)' }),
    requestedAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
    productsTotal: z.int().nullable(),
    productsChecked: z.int(),
    productsFailed: z.int(),
    rowsChecked: z.int().openapi({ description: 'Product/lot rows compared' }),
    rowsRechecked: z.int().openapi({ description: 'Rows compared again after the settle window' }),
    driftCount: z.int(),
    notFoundCount: z.int(),
    unsettledCount: z.int(),
    requests: z.int().openapi({ description: 'Calls made to the WMS' }),
    items: z.array(reconciliationItemSchema),
    nextItemsAfter: z
      .int()
      .nullable()
      .openapi({ description: 'Pass as `itemsAfter` for the next items; null when there are no more' }),
  })
  .openapi('ReconciliationRun');

export type ReconciliationRunView = z.infer<typeof reconciliationRunSchema>;

export function itemView(i: ReconciliationItem): z.infer<typeof reconciliationItemSchema> {
  const notFound = i.status === 'not_found';
  return {
    id: i.id,
    productExternalCode: i.productExternalCode,
    lotCode: i.lotCode || null,
    status: i.status,
    wms: notFound ? null : { existence: i.wmsExistence, available: i.wmsAvailable },
    expected: notFound
      ? null
      : { existence: i.expectedExistence, baseline: i.baselineExistence, movements: i.movements },
    delta: i.delta,
    observedAt: iso(i.observedAt),
  };
}

export function runView(
  run: ReconciliationRun,
  items: readonly ReconciliationItem[],
  nextItemsAfter: number | null,
): ReconciliationRunView {
  return {
    id: run.id,
    connection: run.connection,
    trigger: run.trigger,
    status: run.status,
    reason: run.reason,
    requestedAt: run.requestedAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    productsTotal: run.productsTotal,
    productsChecked: run.productsChecked,
    productsFailed: run.productsFailed,
    rowsChecked: run.rowsChecked,
    rowsRechecked: run.rowsRechecked,
    driftCount: run.driftCount,
    notFoundCount: run.notFoundCount,
    unsettledCount: run.unsettledCount,
    requests: run.requests,
    items: items.map(itemView),
    nextItemsAfter,
  };
}
