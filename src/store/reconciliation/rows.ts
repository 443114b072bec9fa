import type { ReconciliationItemStatus } from '../values.js';
import type { ExpectedFigure, NewReconciliationItem, NewStockSnapshot, ReconciliationRun } from './contract.js';

// Row building shared by both adapters' reconciliation repos: column mapping here, SQL in the dialect.

/** Statements stay under SQLite's bound-parameter limit and keep their text cacheable. */
export const CHUNK = 500;

export function chunked<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function runRow(input: { connection: string; trigger: ReconciliationRun['trigger']; at: Date }) {
  return {
    connection: input.connection,
    trigger: input.trigger,
    status: 'queued' as const,
    requestedAt: input.at,
    updatedAt: input.at,
  };
}

/** What starting (again) does to a run: running, one more attempt, counters from zero. */
export function startUpdate(at: Date) {
  return {
    status: 'running' as const,
    reason: null,
    startedAt: at,
    finishedAt: null,
    productsTotal: null,
    productsChecked: 0,
    productsFailed: 0,
    rowsChecked: 0,
    rowsRechecked: 0,
    requests: 0,
    driftCount: 0,
    notFoundCount: 0,
    unsettledCount: 0,
    updatedAt: at,
  };
}

export function itemRow(i: NewReconciliationItem) {
  return {
    runId: i.runId,
    connection: i.connection,
    productExternalCode: i.productExternalCode,
    lotCode: i.lotCode ?? '',
    status: i.status,
    wmsExistence: i.wmsExistence ?? null,
    wmsAvailable: i.wmsAvailable ?? null,
    expectedExistence: i.expectedExistence ?? null,
    baselineExistence: i.baselineExistence ?? null,
    movements: i.movements ?? null,
    delta: i.delta ?? null,
    observedAt: i.observedAt ?? null,
    createdAt: i.at,
  };
}

export function snapshotRow(s: NewStockSnapshot) {
  return { ...s, lotCode: s.lotCode ?? '' };
}

/** Item counts per status as the finished run shows them. */
export function itemCounts(rows: readonly { status: ReconciliationItemStatus; n: number }[]) {
  const count = (status: ReconciliationItemStatus) => rows.find((r) => r.status === status)?.n ?? 0;
  return { driftCount: count('drift'), notFoundCount: count('not_found'), unsettledCount: count('unsettled') };
}

/** Joins the baselines and the ledger sums of the same products into one figure per product/lot. */
export function mergeExpected(
  snapshots: readonly { productExternalCode: string; lotCode: string; existence: number; asOf: Date }[],
  sums: readonly { productExternalCode: string; lotCode: string; quantity: number; n: number }[],
): ExpectedFigure[] {
  const out = new Map<string, ExpectedFigure>();
  const key = (p: string, l: string) => `${p}\u0000${l}`;
  for (const s of snapshots) {
    out.set(key(s.productExternalCode, s.lotCode), {
      productExternalCode: s.productExternalCode,
      lotCode: s.lotCode,
      baseline: s.existence,
      baselineAsOf: s.asOf,
      movements: 0,
      movementCount: 0,
    });
  }
  for (const m of sums) {
    const k = key(m.productExternalCode, m.lotCode);
    const figure = out.get(k) ?? {
      productExternalCode: m.productExternalCode,
      lotCode: m.lotCode,
      baseline: null,
      baselineAsOf: null,
      movements: 0,
      movementCount: 0,
    };
    figure.movements = m.quantity;
    figure.movementCount = m.n;
    out.set(k, figure);
  }
  return [...out.values()];
}
