import type { Clock } from '../lib/clock.js';
import type { ConnectionConfig } from '../lib/connections.js';
import type { Logger } from '../lib/logger.js';
import { wmsOperations, type WmsOperations } from './client.js';
import { Limiter } from './limiter.js';
import { TokenManager } from './token-manager.js';
import { tokenSource } from './token-source.js';
import { Transport, type CallInfo } from './transport.js';

export { WmsError, isRetryable, wmsMessage, type WmsErrorKind } from './errors.js';
export { parseRetryAfter } from '../lib/backoff.js';
export { Limiter } from './limiter.js';
export { hasNextPage, iteratePages, parseLinkHeader, parseTotalCount, type Page } from './page.js';
export { TokenManager, type TokenStats } from './token-manager.js';
export { tokenSource, type FetchedToken, type TokenSource } from './token-source.js';
export type { CallInfo } from './transport.js';

export interface WmsClientOptions {
  timeoutMs: number;
  /** Calls in flight to this connection's WMS at once. */
  maxConcurrency: number;
  clock: Clock;
  logger?: Logger;
  /** Observes every HTTP call (not the token requests), e.g. for metrics. */
  onCall?: (connection: string, info: CallInfo) => void;
  /** Observes every token request. */
  onTokenRequest?: (connection: string) => void;
  fetch?: typeof fetch;
  /** Aborts every call in flight and to come (the process is stopping). */
  signal?: AbortSignal;
}

export interface WmsClient extends WmsOperations {
  readonly connection: string;
  readonly tokens: TokenManager;
  readonly limiter: Limiter;
  /** HTTP calls sent to the API (retries after a 401 included, token requests not). */
  callCount(): number;
}

/** A client for one connection: its own token cache, its own concurrency bound. */
export function createWmsClient(connection: ConnectionConfig, options: WmsClientOptions): WmsClient {
  const http = { timeoutMs: options.timeoutMs, ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  const onTokenRequest = options.onTokenRequest;
  const tokens = new TokenManager(tokenSource(connection.wms, http, () => options.clock.nowMs()), options.clock, {
    ...(onTokenRequest ? { onRequest: () => onTokenRequest(connection.name) } : {}),
  });
  const limiter = new Limiter(options.maxConcurrency);
  const onCall = options.onCall;
  const transport = new Transport({
    ...http,
    baseUrl: connection.wms.baseUrl,
    tokens,
    limiter,
    clock: options.clock,
    ...(options.logger ? { logger: options.logger.child({ connection: connection.name }) } : {}),
    ...(onCall ? { onCall: (info: CallInfo) => onCall(connection.name, info) } : {}),
  });
  return {
    connection: connection.name,
    tokens,
    limiter,
    callCount: () => transport.calls,
    ...wmsOperations(transport, connection.wms.baseUrl),
  };
}

/** One client per connection, made on first use and kept: tokens are cached per connection. */
export interface WmsClients {
  get(connection: ConnectionConfig): WmsClient;
}

export function wmsClients(options: WmsClientOptions): WmsClients {
  const clients = new Map<string, WmsClient>();
  return {
    get(connection) {
      let client = clients.get(connection.name);
      if (!client) {
        client = createWmsClient(connection, options);
        clients.set(connection.name, client);
      }
      return client;
    },
  };
}
