/**
 * What the rooms tell the notifications room (src/alerts/). Kinds that are things happening
 * resolve once a whole window passes without a new one; `sticky` kinds are states that resolve
 * when the room that raised them clears them.
 */
export const ALERT_KINDS = {
  event_quarantined: { sticky: false },
  event_failed: { sticky: false },
  close_refused: { sticky: false },
  delivery_dead: { sticky: false },
  breaker_open: { sticky: true },
  push_failed: { sticky: false },
  reconcile_drift: { sticky: false },
  reconcile_failed: { sticky: false },
  token_failing: { sticky: true },
  queue_waiting: { sticky: true },
} as const satisfies Record<string, { sticky: boolean }>;

export type AlertKind = keyof typeof ALERT_KINDS;

/** The alerts of the service as a whole rather than of one connection (the job queue) use this connection name. */
export const SERVICE_WIDE = '';

/**
 * Raising never waits and never throws: the caller may be answering the WMS. The signals are
 * buffered and written to the store by the notifications room soon after.
 */
export interface AlertSignals {
  raise(connection: string, kind: AlertKind, detail: string): void;
  clear(connection: string, kind: AlertKind): void;
}
