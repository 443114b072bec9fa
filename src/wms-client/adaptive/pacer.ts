/**
 * This process's starts at its part of the connection's pace (adaptive/pace.ts): a token bucket
 * holding a few starts, so a timer that fires late (a busy event loop) catches up instead of
 * losing the rate, and never more than a short burst (the WMS's own burst is unknown).
 */
export interface Starts {
  tokens: number;
  at: number;
}

/** The bucket holds this many ms of the rate (at least one start). */
const BURST_MS = 25;

export function emptyStarts(nowMs: number): Starts {
  return { tokens: 0, at: nowMs };
}

function refill(b: Starts, perSecond: number, nowMs: number): Starts {
  if (nowMs <= b.at) return b;
  const capacity = Math.max(1, (perSecond * BURST_MS) / 1000);
  return { tokens: Math.min(capacity, b.tokens + ((nowMs - b.at) * perSecond) / 1000), at: nowMs };
}

/** Takes one start if the rate allows it now; otherwise says how long until it does. */
export function takeStart(
  b: Starts,
  perSecond: number,
  nowMs: number,
): { ok: true; starts: Starts } | { ok: false; starts: Starts; waitMs: number } {
  const filled = refill(b, perSecond, nowMs);
  if (filled.tokens >= 1) return { ok: true, starts: { ...filled, tokens: filled.tokens - 1 } };
  return { ok: false, starts: filled, waitMs: Math.max(1, Math.ceil(((1 - filled.tokens) * 1000) / perSecond)) };
}
