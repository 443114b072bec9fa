import type { Clock } from '../lib/clock.js';
import { TOKEN_REFRESH_MARGIN_SECONDS } from '../wms/index.js';
import type { TokenSource } from './token-source.js';

interface Cached {
  token: string;
  /** Past this instant the token is refreshed before use (expiry minus the margin). */
  refreshAtMs: number;
  expiresAtMs: number;
}

export interface TokenStats {
  /** Token requests sent (successful or not). */
  requests: number;
  failures: number;
  /** Since when every token request has failed (epoch ms, the injected clock); null after a success. */
  failingSinceMs: number | null;
}

/**
 * One connection's bearer token: cached, refreshed `TOKEN_REFRESH_MARGIN_SECONDS` (5 min) before
 * it expires, fetched by at most one request at a time however many callers wait (single flight).
 * The clock is injected so tests can move time. The token itself never leaves this object except
 * to go into an Authorization header.
 */
export class TokenManager {
  #cached: Cached | undefined;
  #inFlight: Promise<string> | undefined;
  readonly stats: TokenStats = { requests: 0, failures: 0, failingSinceMs: null };

  readonly #marginSeconds: number;
  readonly #onRequest: (() => void) | undefined;

  constructor(
    private readonly source: TokenSource,
    private readonly clock: Clock,
    options: { marginSeconds?: number; onRequest?: () => void } = {},
  ) {
    this.#marginSeconds = options.marginSeconds ?? TOKEN_REFRESH_MARGIN_SECONDS;
    this.#onRequest = options.onRequest;
  }

  /** A token valid for at least the refresh margin; fetches one when needed. */
  token(): Promise<string> {
    const cached = this.#cached;
    if (cached && this.clock.nowMs() < cached.refreshAtMs) return Promise.resolve(cached.token);
    return (this.#inFlight ??= this.#fetch());
  }

  /**
   * Forgets `token` after the WMS refused it (401). Only that token: when several calls fail with
   * the same one at once, the first invalidation starts one refresh and the rest reuse its result.
   */
  invalidate(token: string): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  /** Seconds until the cached token expires, for status pages; undefined when none is cached. */
  expiresInSeconds(): number | undefined {
    return this.#cached ? Math.round((this.#cached.expiresAtMs - this.clock.nowMs()) / 1000) : undefined;
  }

  /** Seconds since token requests started failing without a success since; 0 while they succeed. */
  failingSeconds(): number {
    const since = this.stats.failingSinceMs;
    return since === null ? 0 : Math.max(0, (this.clock.nowMs() - since) / 1000);
  }

  async #fetch(): Promise<string> {
    this.stats.requests += 1;
    this.#onRequest?.();
    try {
      const fetched = await this.source();
      const now = this.clock.nowMs();
      this.stats.failingSinceMs = null;
      const lifetimeMs = fetched.expiresInSeconds * 1000;
      // A token shorter-lived than twice the margin would be refreshed on every call; use half its life then.
      const marginMs = Math.min(this.#marginSeconds * 1000, lifetimeMs / 2);
      this.#cached = {
        token: fetched.accessToken,
        expiresAtMs: now + lifetimeMs,
        refreshAtMs: now + lifetimeMs - marginMs,
      };
      return fetched.accessToken;
    } catch (err) {
      this.stats.failures += 1;
      this.stats.failingSinceMs ??= this.clock.nowMs();
      throw err;
    } finally {
      this.#inFlight = undefined;
    }
  }
}

/** What the console shows of a connection's token cache. */
export interface WmsTokenView {
  requests: number;
  failures: number;
  expiresInSeconds: number | null;
}

export const wmsTokenView = (tokens: TokenManager): WmsTokenView => ({
  requests: tokens.stats.requests,
  failures: tokens.stats.failures,
  expiresInSeconds: tokens.expiresInSeconds() ?? null,
});
