import { type AlertKind, type AlertSignals, SERVICE_WIDE } from '../lib/alert-signals.js';
import type { QueueBacklog } from '../queue/types.js';

export interface StateSources {
  /** Each connection's token requests: since when they have all failed (null: the last one succeeded). */
  tokens(): { connection: string; failingSinceMs: number | null }[];
  backlog(): Promise<QueueBacklog>;
  tokenFailingMs: number;
  queueWaitMs: number;
}

/**
 * The alerts that are states read on a schedule: raised when the state begins (once, not at every
 * reading) and cleared when it ends. What this process saw last is kept here, so a restart raises
 * a state that still holds once more, which the group absorbs.
 */
export function stateChecks(sources: StateSources, signals: AlertSignals): (nowMs: number) => Promise<void> {
  const active = new Set<string>();
  const set = (connection: string, kind: AlertKind, on: boolean, detail: string) => {
    const key = `${connection}\u0000${kind}`;
    if (on && !active.has(key)) {
      active.add(key);
      signals.raise(connection, kind, detail);
    } else if (!on && active.delete(key)) signals.clear(connection, kind);
  };
  return async (nowMs) => {
    for (const t of sources.tokens()) {
      const failingMs = t.failingSinceMs === null ? 0 : nowMs - t.failingSinceMs;
      set(
        t.connection,
        'token_failing',
        t.failingSinceMs !== null && failingMs >= sources.tokenFailingMs,
        `every token request has failed for ${Math.round(failingMs / 60_000)} min`,
      );
    }
    const backlog = await sources.backlog();
    const waitedMs = backlog.oldestReadyAt ? nowMs - backlog.oldestReadyAt.getTime() : 0;
    set(
      SERVICE_WIDE,
      'queue_waiting',
      waitedMs >= sources.queueWaitMs,
      `the oldest of ${backlog.ready} ready jobs has waited ${Math.round(waitedMs / 60_000)} min`,
    );
  };
}
