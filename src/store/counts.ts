import { INBOUND_STATUSES, type InboundStatus } from './values.js';

/** Turns `GROUP BY status` rows into a count for every status, zero included. */
export function countsOf(rows: { status: InboundStatus; n: number | string }[]): Record<InboundStatus, number> {
  const counts = Object.fromEntries(INBOUND_STATUSES.map((s) => [s, 0])) as Record<InboundStatus, number>;
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}
