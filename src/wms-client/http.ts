import { Agent, type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { parseRetryAfter } from '../lib/backoff.js';
import { WmsError } from './errors.js';

/** One HTTP exchange with the WMS (or its identity provider). */
export interface HttpRequest {
  operation: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Absolute URL without query string. */
  url: string;
  /** For messages and logs: the path, never a query value or a credential. */
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** Form body (endpoint 21): credentials travel here, never in the URL. */
  form?: URLSearchParams;
  searchParams?: URLSearchParams;
}

export interface HttpOptions {
  timeoutMs: number;
  /** The connection pool calls go through (one per client set; `wmsAgent`). Undici's global one if absent. */
  dispatcher?: Dispatcher;
  /** Abandons the call (the process is stopping): a network WmsError saying so. */
  signal?: AbortSignal;
}

/** The headers of an answer, read by name (lower case, as HTTP/1.1 delivers them). */
export interface AnswerHeaders {
  get(name: string): string | null;
}

/** The WMS's answer: its status and headers, the body read once by `readBody`. */
export interface HttpAnswer {
  status: number;
  ok: boolean;
  headers: AnswerHeaders;
  text(): Promise<string>;
}

/**
 * The pool of keep-alive connections to the WMS. Its timeouts are the call's: connecting, waiting
 * for the answer's headers, and silence while its body arrives, each at most `timeoutMs` (undici
 * checks these timers about once a second: a call gives up up to a second later than asked).
 */
export function wmsAgent(timeoutMs: number): Agent {
  return new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'BODY_DEADLINE',
]);

/**
 * Sends one request with undici's `request`, with no automatic retry (the push jobs own retries,
 * with backoff and Retry-After) and no exception on HTTP error statuses: the caller reads the
 * status itself. Timeouts and connection failures become a retryable `WmsError`.
 *
 * Not fetch (nor ky over it): on the push path the client's CPU per call bounds a worker, and
 * fetch's WHATWG Request, Response, streams and AbortSignals cost about 850 µs of CPU per call
 * on the reference machine (ky over it about 1,300 µs) against 330 to 500 µs here
 * (docs/architecture.md, "WMS HTTP client").
 */
export async function send(req: HttpRequest, options: HttpOptions): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  let body: string | undefined;
  if (req.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.json);
  } else if (req.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    body = req.form.toString();
  }
  const query = req.searchParams?.toString();
  try {
    const res = await request(query ? `${req.url}?${query}` : req.url, {
      method: req.method,
      headers,
      body,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return answerOf(req, res, options);
  } catch (err) {
    throw callError(req, err, options);
  }
}

function answerOf(req: HttpRequest, res: Dispatcher.ResponseData, options: HttpOptions): HttpAnswer {
  const raw = res.headers;
  return {
    status: res.statusCode,
    ok: res.statusCode >= 200 && res.statusCode < 300,
    headers: {
      get(name) {
        const value = raw[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    // A body that stalls, breaks or overflows after the headers fails the call like a stalled answer does.
    text: () =>
      cappedText(res.body, options.timeoutMs).catch((err: unknown) => Promise.reject(callError(req, err, options))),
  };
}

/** Longest answer body read from the WMS; a longer one fails the call (a network WmsError, retryable). */
export const WMS_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * The body, at most WMS_BODY_LIMIT bytes, all of it within `timeoutMs` of its first read: undici's
 * body timeout only bounds the silence between chunks, which a peer sending a byte at a time never breaks.
 */
async function cappedText(body: Dispatcher.ResponseData['body'], timeoutMs: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const deadline = performance.now() + timeoutMs;
  for await (const chunk of body) {
    if (performance.now() > deadline) {
      body.destroy();
      throw Object.assign(new Error(`answer body not complete within ${timeoutMs} ms`), { code: 'BODY_DEADLINE' });
    }
    size += (chunk as Buffer).byteLength;
    if (size > WMS_BODY_LIMIT) {
      body.destroy();
      throw Object.assign(new Error(`answer body over ${WMS_BODY_LIMIT} bytes`), { code: 'BODY_TOO_LARGE' });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function callError(req: HttpRequest, err: unknown, options: HttpOptions): WmsError {
  const where = { operation: req.operation, method: req.method, path: req.path };
  if (options.signal?.aborted)
    return new WmsError({ kind: 'network', ...where, detail: 'abandoned: the service is stopping' });
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return new WmsError({ kind: 'timeout', ...where });
  return new WmsError({ kind: 'network', ...where, detail: networkDetail(err) });
}

function networkDetail(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: string; message?: string } };
  if (typeof e?.code === 'string' && !e.code.startsWith('UND_ERR')) return e.code;
  return e?.cause?.code ?? e?.cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** The body as JSON when it parses, else as text ('' for none). */
export async function readBody(response: HttpAnswer): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The WmsError for a non-2xx answer, with the WMS's body and its Retry-After. */
export async function httpError(req: HttpRequest, response: HttpAnswer, nowMs: number): Promise<WmsError> {
  const body = await readBody(response);
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), nowMs);
  return new WmsError({
    kind: 'http',
    operation: req.operation,
    method: req.method,
    path: req.path,
    status: response.status,
    body,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

/** Parses a 2xx body with its spec schema; an answer that does not match is not retryable. */
export function parseWith<S extends z.ZodType>(
  req: HttpRequest,
  status: number,
  body: unknown,
  schema: S,
): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new WmsError({
    kind: 'invalid-response',
    operation: req.operation,
    method: req.method,
    path: req.path,
    status,
    body,
    detail: first ? `${first.path.join('.') || '(body)'}: ${first.message}` : 'unreadable',
  });
}
