import type { BreakerRow } from '../../store/erp-deliveries/contract.js';

export interface BreakerSettings {
  /** Consecutive failures that open the breaker. */
  failures: number;
  probeMs: number;
}

export const CLOSED: BreakerRow = { state: 'closed', failures: 0, openedAt: null, nextProbeAt: null };

/**
 * The breaker after a run of attempts (in the order they ended; true = the endpoint answered
 * anything but a failure). Closed: consecutive failures are counted and the breaker opens at the
 * threshold. Open: only probes were sent; one success closes it, a failure keeps it open until
 * the next probe time, which `takeProbe` already moved on.
 */
export function stepBreaker(
  current: BreakerRow | undefined,
  results: readonly boolean[],
  settings: BreakerSettings,
  now: Date,
): BreakerRow {
  let row = current ?? CLOSED;
  for (const ok of results) {
    if (ok) {
      row = CLOSED;
      continue;
    }
    const failures = row.failures + 1;
    if (row.state === 'open') row = { ...row, failures };
    else if (failures >= settings.failures)
      row = { state: 'open', failures, openedAt: now, nextProbeAt: new Date(now.getTime() + settings.probeMs) };
    else row = { ...row, failures };
  }
  return row;
}
