import { INBOUND_STATUSES, type InboundStatus } from '../values.js';

/** Turns `GROUP BY status` rows into a count for every status, zero included. */
export function countsOf(rows: { status: InboundStatus; n: number | string }[]): Record<InboundStatus, number> {
  const counts = Object.fromEntries(INBOUND_STATUSES.map((s) => [s, 0])) as Record<InboundStatus, number>;
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/**
 * Counts per status from the open statuses' counts (read from the partial index of open events)
 * and the number of events: `processed` is the rest, so nothing walks the processed events' rows.
 */
export function countsWithProcessed(
  open: { status: InboundStatus; n: number | string }[],
  total: number | string,
): Record<InboundStatus, number> {
  const counts = countsOf(open.filter((r) => r.status !== 'processed'));
  counts.processed = Number(total) - Object.values(counts).reduce((a, b) => a + b, 0);
  return counts;
}
