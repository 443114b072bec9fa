import { classify } from '../erp/delivery/classify.js';
import type { Poster } from '../erp/delivery/post.js';
import { signMessage } from '../erp/delivery/sign.js';
import type { Clock } from '../lib/clock.js';
import type { AlertMessage, AlertSendResult } from '../store/alerts/contract.js';

export interface SendSettings {
  poster: Poster;
  /** Signs `json` messages; the config refuses json targets without it. */
  secret: string | undefined;
  retryScheduleMs: readonly number[];
  random?: () => number;
}

/** The id a receiver deduplicates a message by, the same at every attempt. */
export const alertMessageId = (id: number) => `alert_${id}`;

/**
 * One attempt at one message, judged by the ERP deliveries' rule (src/erp/delivery/classify.ts):
 * 2xx sent, a 4xx other than 408/409/425/429 dead at once, anything else retried along the schedule.
 */
export async function sendAlert(
  s: SendSettings,
  message: AlertMessage,
  clock: Clock,
  signal?: AbortSignal,
): Promise<AlertSendResult> {
  const at = clock.now();
  const headers: Record<string, string> =
    message.format === 'json' && s.secret
      ? { ...signMessage([s.secret], alertMessageId(message.id), at, message.body) }
      : { 'content-type': 'application/json' };
  const post = await s.poster.post(message.url, { ...headers, 'user-agent': 'wms-sync' }, message.body, signal);
  const ended = clock.now();
  const verdict = classify(post, message.attempts + 1, s.retryScheduleMs, ended, (s.random ?? Math.random)());
  return {
    id: message.id,
    outcome: verdict.outcome === 'delivered' ? 'sent' : verdict.outcome,
    ...(verdict.nextAttemptAt ? { nextAttemptAt: verdict.nextAttemptAt } : {}),
    error: verdict.error,
    at: ended,
  };
}
