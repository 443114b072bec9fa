export interface SendResult {
  status: number | null;
  body: string | null;
  /** Transport failure: `timeout after N ms`, or the network error's message. */
  error: string | null;
  durationMs: number;
}

/** Largest response body kept in the webhook log. */
export const RESPONSE_BODY_LIMIT = 64 * 1024;

/**
 * One webhook request: POST, JSON body, Basic credentials when configured, aborted after
 * `timeoutMs` (the spec's 45 s by default) or when the emulator stops.
 */
export async function postJson(input: {
  url: string;
  body: string;
  authorization: string | null;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<SendResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'wms-sync-emulator' };
  if (input.authorization) headers.authorization = input.authorization;
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
  try {
    const res = await fetch(input.url, {
      method: 'POST',
      headers,
      body: input.body,
      signal: AbortSignal.any([timeout, input.signal]),
      redirect: 'manual',
    });
    const text = await keptText(res);
    return { status: res.status, body: text, error: null, durationMs: elapsed() };
  } catch (err) {
    if (timeout.aborted)
      return { status: null, body: null, error: `timeout after ${input.timeoutMs} ms`, durationMs: elapsed() };
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const message = cause?.code ?? cause?.message ?? (err as Error).message;
    return { status: null, body: null, error: `request failed: ${message}`, durationMs: elapsed() };
  }
}

/** The first RESPONSE_BODY_LIMIT bytes of the answer; the rest is not read (the connection is let go). */
async function keptText(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  while (size < RESPONSE_BODY_LIMIT) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (size >= RESPONSE_BODY_LIMIT) await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
}

export interface Verdict {
  ok: boolean;
  /** What the webhook log shows: `HTTP 500`, `success:false: <message>`, a transport error. */
  error: string | null;
  /** What the operator sees on the closing document: the receiver's message when it rejected it. */
  message: string | null;
  /** The receiver answered and refused (success:false): retrying would not change its mind. */
  rejected: boolean;
}

/**
 * spec: "The receiver answers with a 2xx status to acknowledge"; "To reject a close document, the
 * receiver returns a body with success = false and message"; "Any non-2xx response is a failure".
 */
export function judge(result: SendResult): Verdict {
  if (result.error) return { ok: false, error: result.error, message: result.error, rejected: false };
  if (result.status === null || result.status < 200 || result.status > 299) {
    return { ok: false, error: `HTTP ${result.status}`, message: `HTTP ${result.status}`, rejected: false };
  }
  let body: unknown;
  try {
    body = result.body ? JSON.parse(result.body) : undefined;
  } catch {
    body = undefined;
  }
  if (body !== null && typeof body === 'object' && (body as { success?: unknown }).success === false) {
    const message = (body as { message?: unknown }).message;
    const text = typeof message === 'string' ? message : 'rejected without a message';
    return { ok: false, error: `success:false: ${text}`, message: text, rejected: true };
  }
  return { ok: true, error: null, message: null, rejected: false };
}
