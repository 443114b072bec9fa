import ky, { isTimeoutError } from 'ky';
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
  /** Replaces the global fetch (tests never need it; a proxy is put in front instead). */
  fetch?: typeof fetch;
  /** Abandons the call (the process is stopping): a network WmsError saying so. */
  signal?: AbortSignal;
}

/**
 * Sends one request through ky with no automatic retry (the push jobs own retries, with backoff
 * and Retry-After) and no exception on HTTP error statuses: the caller reads the status itself.
 * Timeouts and connection failures become a retryable `WmsError`.
 */
export async function send(req: HttpRequest, options: HttpOptions): Promise<Response> {
  try {
    return await ky(req.url, {
      method: req.method,
      headers: { accept: 'application/json', ...req.headers },
      ...(req.json !== undefined ? { json: req.json } : {}),
      ...(req.form ? { body: req.form } : {}),
      ...(req.searchParams ? { searchParams: req.searchParams } : {}),
      timeout: options.timeoutMs,
      retry: 0,
      throwHttpErrors: false,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    if (options.signal?.aborted) {
      throw new WmsError({ kind: 'network', operation: req.operation, method: req.method, path: req.path, detail: 'abandoned: the service is stopping' });
    }
    if (isTimeoutError(err)) throw new WmsError({ kind: 'timeout', operation: req.operation, method: req.method, path: req.path });
    throw new WmsError({ kind: 'network', operation: req.operation, method: req.method, path: req.path, detail: networkDetail(err) });
  }
}

function networkDetail(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** The body as JSON when it parses, else as text ('' for none). */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The WmsError for a non-2xx answer, with the WMS's body and its Retry-After. */
export async function httpError(req: HttpRequest, response: Response, nowMs: number): Promise<WmsError> {
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
export function parseWith<S extends z.ZodType>(req: HttpRequest, status: number, body: unknown, schema: S): z.output<S> {
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
