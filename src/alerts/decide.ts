import type { AlertGroup } from '../store/alerts/contract.js';
import type { AlertPhase } from '../store/values.js';

/**
 * The grouping rule: a group tells what is pending at once the first time, then at most once per
 * window with the count of what happened meanwhile; it resolves once nothing is pending, a window
 * has passed since its last message, and it is over: a state cleared, or things that happen quiet
 * for a whole window.
 */
export function decide(group: AlertGroup, now: Date, windowMs: number): AlertPhase | null {
  const sinceTold = group.notifiedAt ? now.getTime() - group.notifiedAt.getTime() : Number.POSITIVE_INFINITY;
  if (sinceTold < windowMs) return null;
  if (group.pending > 0) return 'firing';
  if (!group.notifiedAt) return null;
  const over = group.sticky ? group.cleared : now.getTime() - group.lastAt.getTime() >= windowMs;
  return over ? 'resolved' : null;
}
