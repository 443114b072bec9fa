import { setMaxListeners } from 'node:events';
import type { Dispatcher } from 'undici';
import type { Clock } from '../lib/clock.js';
import type { ConnectionConfig } from '../lib/connections.js';
import type { Logger } from '../lib/logger.js';
import type { Tracing } from '../lib/tracing.js';
import { eventLoopLagMs } from './adaptive/event-loop-lag.js';
import type { SharedBudget } from './adaptive/share.js';
import { type WmsOperations, wmsOperations } from './client.js';
import { wmsAgent } from './http.js';
import { AdaptiveLimiter, type Sample, type SetTimer } from './limiter.js';
import { TokenManager } from './token-manager.js';
import { tokenSource } from './token-source.js';
import { type CallInfo, Transport } from './transport.js';

export { parseRetryAfter } from '../lib/backoff.js';
export { DEFAULT_RULES, initialState, noLoadRtt, onSample, permits } from './adaptive/rules.js';
export { type SharedBudget, shareOf, type TimedSample } from './adaptive/share.js';
export { type BudgetTable, tableBudget } from './adaptive/table-budget.js';
export { isRetryable, WmsError, type WmsErrorKind, wmsMessage } from './errors.js';
export {
  AdaptiveLimiter,
  type AdaptiveLimiterOptions,
  type Classify,
  type LimitRules,
  type LimitState,
  type Sample,
  type SetTimer,
} from './limiter.js';
export { hasNextPage, iteratePages, type Page, parseLinkHeader, parseTotalCount } from './page.js';
export { TokenManager, type TokenStats, type WmsTokenView, wmsTokenView } from './token-manager.js';
export { type FetchedToken, type TokenSource, tokenSource } from './token-source.js';
export type { CallInfo } from './transport.js';
export { classifyCall } from './transport.js';

export interface WmsClientOptions {
  timeoutMs: number;
  /** Ceiling of the adaptive limit of calls in flight to this connection's WMS (WMS_MAX_CONCURRENCY). */
  maxConcurrency: number;
  /** Where the adaptive limit starts (8 unless told; never above the ceiling). */
  initialConcurrency?: number;
  /** On Postgres: the deployment's processes share each connection's limit through it. */
  budget?: { shared: SharedBudget; holder: string; onError?: (err: unknown) => void };
  /** Observes every limiter sample (metrics). */
  onLimiterSample?: (connection: string, sample: Sample, limit: number) => void;
  setTimer?: SetTimer;
  clock: Clock;
  logger?: Logger;
  /** Observes every HTTP call (not the token requests), e.g. for metrics. */
  onCall?: (connection: string, info: CallInfo) => void;
  /** Observes every token request. */
  onTokenRequest?: (connection: string) => void;
  /** The connection pool of the calls (one per `wmsClients`, closed with it). */
  dispatcher?: Dispatcher;
  /** Aborts every call in flight and to come (the process is stopping). */
  signal?: AbortSignal;
  /** A client span per call and per token request, with its traceparent sent (tracing on). */
  tracing?: Tracing;
}

export interface WmsClient extends WmsOperations {
  readonly connection: string;
  readonly tokens: TokenManager;
  readonly limiter: AdaptiveLimiter;
  /** HTTP calls sent to the API (retries after a 401 included, token requests not). */
  callCount(): number;
  /** This process's calls since it started, and how many failed on each side (the WMS's, or the data's). */
  callTally(): { calls: number; unavailable: number; refused: number };
}

/** A client for one connection: its own token cache, its own adaptive concurrency limit. */
export function createWmsClient(connection: ConnectionConfig, options: WmsClientOptions): WmsClient {
  // Every call in flight listens on the stop signal (64 or more at once is normal): not a leak.
  if (options.signal) setMaxListeners(0, options.signal);
  const tracing = options.tracing?.enabled ? options.tracing : undefined;
  const http = {
    timeoutMs: options.timeoutMs,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(tracing ? { traceparent: () => tracing.traceparent() } : {}),
  };
  const onTokenRequest = options.onTokenRequest;
  const tokens = new TokenManager(
    tokenSource(connection.wms, http, () => options.clock.nowMs()),
    options.clock,
    {
      ...(onTokenRequest ? { onRequest: () => onTokenRequest(connection.name) } : {}),
      ...(tracing ? { tracing } : {}),
    },
  );
  const onLimiterSample = options.onLimiterSample;
  const limiter = new AdaptiveLimiter({
    max: options.maxConcurrency,
    ...(options.initialConcurrency !== undefined ? { initial: options.initialConcurrency } : {}),
    clock: options.clock,
    lagMs: eventLoopLagMs,
    ...(options.setTimer ? { setTimer: options.setTimer } : {}),
    ...(options.budget
      ? {
          shared: {
            budget: options.budget.shared,
            connection: connection.name,
            holder: options.budget.holder,
            ...(options.budget.onError ? { onError: options.budget.onError } : {}),
          },
        }
      : {}),
    ...(onLimiterSample
      ? { onSample: (sample: Sample, limit: number) => onLimiterSample(connection.name, sample, limit) }
      : {}),
  });
  const onCall = options.onCall;
  const transport = new Transport({
    ...http,
    baseUrl: connection.wms.baseUrl,
    tokens,
    limiter,
    clock: options.clock,
    ...(options.logger ? { logger: options.logger.child({ connection: connection.name }) } : {}),
    ...(onCall ? { onCall: (info: CallInfo) => onCall(connection.name, info) } : {}),
    ...(tracing ? { tracing } : {}),
  });
  return {
    connection: connection.name,
    tokens,
    limiter,
    callCount: () => transport.calls,
    callTally: () => ({
      calls: transport.calls,
      unavailable: transport.unavailableCalls,
      refused: transport.refusedCalls,
    }),
    ...wmsOperations(transport, connection.wms.baseUrl),
  };
}

/** One client per connection, made on first use and kept: tokens are cached per connection. */
export interface WmsClients {
  get(connection: ConnectionConfig): WmsClient;
  /** The clients made so far (metrics read their limits). */
  all(): WmsClient[];
  /** Stops the limiters' shared-budget exchanges, gives their shares back and closes the connections to the WMS. */
  close(): Promise<void>;
}

export function wmsClients(options: WmsClientOptions): WmsClients {
  const clients = new Map<string, WmsClient>();
  // One keep-alive pool for every connection's calls, unless the caller brings its own.
  const agent = options.dispatcher ? undefined : wmsAgent(options.timeoutMs);
  const clientOptions: WmsClientOptions = agent ? { ...options, dispatcher: agent } : options;
  return {
    get(connection) {
      let client = clients.get(connection.name);
      if (!client) {
        client = createWmsClient(connection, clientOptions);
        clients.set(connection.name, client);
      }
      return client;
    },
    all: () => [...clients.values()],
    close: async () => {
      await Promise.all([...clients.values()].map((c) => c.limiter.close()));
      // Called once the work stopped: a call still open then is one the stop abandoned.
      await agent?.destroy();
    },
  };
}
