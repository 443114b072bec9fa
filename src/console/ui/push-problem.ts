import { errorText } from './format.js';

/** What an operator reads first about a WMS push's error: whose move it is, in plain words. */
export interface PushProblem {
  tone: 'bad' | 'warn';
  headline: string;
  detail: string;
}

function hhmm(iso: string): string {
  return `${iso.slice(11, 16)} UTC`;
}

/**
 * Two causes need two different people: data the WMS refused (a 4xx: only a change in the ERP
 * fixes it) and a WMS that did not answer well (a 5xx, a timeout, a 429: the push retries by itself,
 * and an operator retries once the WMS is back, if the attempts ran out).
 */
export function pushProblem(record: { state: string; lastError: unknown }): PushProblem | undefined {
  const e = record.lastError as
    | { kind?: string; retryable?: boolean; status?: number; attempts?: number; nextAttemptAt?: string }
    | null
    | undefined;
  if (!e || typeof e !== 'object' || record.state === 'synced') return undefined;
  const detail = errorText(e);
  if (e.kind === 'wms' && e.retryable === false)
    return { tone: 'bad', headline: 'The WMS refused the data: fix it in the ERP, which pushes it again.', detail };
  if (e.kind === 'wms' && e.retryable) {
    if (record.state === 'pending') {
      const attempt = e.attempts ? `attempt ${e.attempts}` : 'an attempt';
      const next = e.nextAttemptAt ? `, next at ${hhmm(e.nextAttemptAt)}` : ', tried again by itself';
      return { tone: 'warn', headline: `The WMS is unavailable: ${attempt} failed${next}.`, detail };
    }
    return {
      tone: 'bad',
      headline: `The WMS was unavailable for every attempt${e.attempts ? ` (${e.attempts})` : ''}: retry once it is back.`,
      detail,
    };
  }
  return { tone: 'bad', headline: 'The push could not be made.', detail };
}
