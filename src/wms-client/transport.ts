import type { z } from 'zod';
import { parseRetryAfter } from '../lib/backoff.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { Tracing } from '../lib/tracing.js';
import { UnaddressablePathError, WMS_PATHS, type WmsPathName, wmsPath } from '../wms/index.js';
import { WmsError } from './errors.js';
import {
  type AnswerHeaders,
  type HttpAnswer,
  type HttpOptions,
  type HttpRequest,
  httpError,
  parseWith,
  readBody,
  send,
} from './http.js';
import type { AdaptiveLimiter, Classify, Sample } from './limiter.js';
import type { TokenManager } from './token-manager.js';

export interface Operation<S extends z.ZodType> {
  /** Names the call in errors, logs and metrics, e.g. `createProduct`. */
  name: string;
  method: HttpRequest['method'];
  path: WmsPathName;
  params?: Record<string, string>;
  searchParams?: URLSearchParams;
  json?: unknown;
  schema: S;
}

export interface CallInfo {
  operation: string;
  status: number;
  ms: number;
  /** True for the second send after a 401 and a token refresh. */
  retriedAfter401: boolean;
}

export interface TransportOptions extends HttpOptions {
  baseUrl: string;
  tokens: TokenManager;
  limiter: AdaptiveLimiter;
  clock: Clock;
  logger?: Logger;
  onCall?: (info: CallInfo) => void;
  /** A client span per call (tracing on); `traceparent` of HttpOptions sends it. */
  tracing?: Tracing;
}

export interface TransportResult<T> {
  data: T;
  status: number;
  headers: AnswerHeaders;
}

/**
 * Authenticated calls to `{base_url}`: bearer token from the manager, at most the adaptive
 * limiter's limit in flight (each answer teaches it), and on a 401 exactly one refresh and one retry ("on 401 they request a new token and
 * retry", spec, Authentication). Logs carry operation, status and duration only.
 */
export class Transport {
  calls = 0;
  /** Calls the WMS did not answer well (the client retries them): no answer, 409, 429 or 5xx. */
  unavailableCalls = 0;
  /** Calls the WMS refused (another 4xx): the data or the request, not the WMS, is at fault. */
  refusedCalls = 0;
  readonly #classify: Classify;

  constructor(private readonly options: TransportOptions) {
    this.#classify = classifier(() => options.clock.nowMs());
  }

  call<S extends z.ZodType>(op: Operation<S>): Promise<TransportResult<z.output<S>>> {
    let path: string;
    try {
      path = wmsPath(op.path, op.params);
    } catch (err) {
      if (!(err instanceof UnaddressablePathError)) throw err;
      // Never a call to another URL: a failure of this call that retrying cannot fix.
      return Promise.reject(
        new WmsError({
          kind: 'invalid-request',
          operation: op.name,
          method: op.method,
          path: WMS_PATHS[op.path],
          detail: err.message,
        }),
      );
    }
    const req: HttpRequest = {
      operation: op.name,
      method: op.method,
      url: `${this.options.baseUrl}${path}`,
      path,
      ...(op.json !== undefined ? { json: op.json } : {}),
      ...(op.searchParams ? { searchParams: op.searchParams } : {}),
    };
    return this.#answer(req, op.schema);
  }

  /**
   * The call holds its place in the limit until the WMS's answer arrives (its status and headers),
   * not while this process reads and parses the body: that time is ours, not the WMS's, and on a
   * busy process it would keep the WMS's slots idle (64 in flight here left the WMS's 64 slots
   * busy only 50 ms of every 65). The limiter learns from the status (see `classifyCall`).
   */
  async #answer<S extends z.ZodType>(req: HttpRequest, schema: S): Promise<TransportResult<z.output<S>>> {
    const response = await this.options.limiter.run(async () => {
      let token = await this.options.tokens.token();
      let response = await this.#send(req, token, false);
      if (response.status === 401) {
        await readBody(response);
        this.options.tokens.invalidate(token);
        token = await this.options.tokens.token();
        response = await this.#send(req, token, true);
      }
      return response;
    }, this.#classify);
    if (!response.ok) throw await httpError(req, response, this.options.clock.nowMs());
    const data = parseWith(req, response.status, await readBody(response), schema);
    return { data, status: response.status, headers: response.headers };
  }

  #send(req: HttpRequest, token: string, retriedAfter401: boolean): Promise<HttpAnswer> {
    const tracing = this.options.tracing;
    if (!tracing) return this.#sendOnce(req, token, retriedAfter401);
    return tracing.span(
      `wms ${req.operation}`,
      { kind: 'client', attributes: { 'http.request.method': req.method, 'url.path': req.path } },
      async (span) => {
        const answer = await this.#sendOnce(req, token, retriedAfter401);
        span.setAttributes({ 'http.response.status_code': answer.status });
        if (answer.status >= 400) span.fail(new Error(`answered ${answer.status}`));
        return answer;
      },
    );
  }

  async #sendOnce(req: HttpRequest, token: string, retriedAfter401: boolean): Promise<HttpAnswer> {
    const started = performance.now();
    this.calls += 1;
    let status = 0;
    try {
      const response = await send({ ...req, headers: { authorization: `Bearer ${token}` } }, this.options);
      status = response.status;
      return response;
    } finally {
      if (status === 0 || status === 409 || status === 429 || status >= 500) this.unavailableCalls += 1;
      else if (status >= 400) this.refusedCalls += 1;
      const ms = Math.round((performance.now() - started) * 100) / 100;
      const info = { operation: req.operation, status, ms, retriedAfter401 };
      this.options.logger?.debug({ wms: info, method: req.method, path: req.path }, 'wms call');
      this.options.onCall?.(info);
    }
  }
}

/**
 * What a finished call tells the limiter: any answer is a latency sample, except 429 and 503 (the
 * WMS says it is overloaded) and other 5xx (says nothing certain); a timeout is overload; a
 * connection failure says nothing about load. The answer comes as the call's value (a response,
 * whatever its status) or as a WmsError (token requests).
 */
export const classifier =
  (nowMs: () => number): Classify =>
  (outcome, rttMs) => {
    if (outcome.ok) {
      const response = outcome.value as { status?: unknown; headers?: AnswerHeaders } | undefined;
      if (typeof response?.status !== 'number') return { kind: 'ok', rttMs, saturated: false };
      const retryAfterMs =
        response.status === 429 || response.status === 503
          ? parseRetryAfter(response.headers?.get('retry-after'), nowMs())
          : undefined;
      return byStatus(response.status, retryAfterMs, rttMs);
    }
    const err = outcome.error;
    if (!(err instanceof WmsError)) return undefined;
    if (err.kind === 'timeout') return { kind: 'timeout' };
    if (err.kind === 'network' || err.kind === 'invalid-request') return undefined;
    return byStatus(err.status, err.retryAfterMs, rttMs);
  };

export const classifyCall: Classify = classifier(() => Date.now());

function byStatus(status: number, retryAfterMs: number | undefined, rttMs: number): Sample | undefined {
  if (status === 429 || status === 503) return { kind: 'overload', status, retryAfterMs };
  if (status >= 500) return undefined;
  return { kind: 'ok', rttMs, saturated: false };
}
