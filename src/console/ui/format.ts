/** Formatting shared by the console's pages: dates, durations, numbers, error texts. */

export function fmtNumber(n: number): string {
  return n.toLocaleString('en-US');
}

/** `2026-11-20 10:00:03` in UTC: unambiguous for operators in any time zone. */
export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

export function fmtDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

/** `3 min ago`, from an ISO instant and the clock's now. */
export function fmtAgo(iso: string | null | undefined, nowMs: number): string {
  if (!iso) return '—';
  const seconds = (nowMs - Date.parse(iso)) / 1000;
  return seconds < 0 ? `in ${fmtDuration(-seconds)}` : `${fmtDuration(seconds)} ago`;
}

/** One readable line from a stored error: the WMS's message where there is one. */
export function errorText(error: unknown): string {
  if (error === null || error === undefined) return '';
  if (typeof error === 'string') return error;
  if (typeof error === 'object') {
    // A stored WMS error carries the human text (the body's title) as its message; the body's own
    // `message` is JHipster's key (error.validation), shown only when nothing better is there.
    const e = error as { message?: unknown; status?: unknown; body?: { message?: unknown; title?: unknown } };
    const message = [e.message, e.body?.title, e.body?.message].find(
      (m): m is string => typeof m === 'string' && m.length > 0,
    );
    const status = typeof e.status === 'number' && e.status > 0 ? `HTTP ${e.status}: ` : '';
    if (message) return `${status}${message}`;
  }
  return JSON.stringify(error);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${fmtNumber(n)} ${n === 1 ? one : many}`;
}
