import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { Counter, type Registry } from 'prom-client';
import type { Clock } from './clock.js';
import { AppError } from './errors.js';

export interface AuthFailureLimits {
  /** Failed authentications an address may make per window before it is answered 429; 0 turns the limit off. */
  limit: number;
  windowMs: number;
  /** Addresses tracked at once; the most idle ones are forgotten first. */
  maxClients?: number;
}

interface Bucket {
  level: number;
  at: number;
}

/**
 * Counts failed authentications per client address as a leaky bucket: each failure adds one,
 * `limit` drain away per window. Over the limit, a failure is answered 429 with the seconds until
 * the bucket is back under it. The limiter only ever sees failures, so it never refuses or slows a
 * correct credential: a caller behind the same address as a guesser keeps working.
 */
export class AuthFailureLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #maxClients: number;

  constructor(
    private readonly limits: AuthFailureLimits,
    private readonly clock: Clock,
  ) {
    this.#maxClients = limits.maxClients ?? 10_000;
  }

  /**
   * Counts one failure; when the address is now over its limit, returns the seconds after which
   * another failure would be within it again (the Retry-After).
   */
  fail(address: string): number | undefined {
    const { limit, windowMs } = this.limits;
    if (limit <= 0) return undefined;
    const now = this.clock.nowMs();
    const rate = limit / windowMs;
    const bucket = this.#buckets.get(address);
    const drained = bucket ? Math.max(0, bucket.level - (now - bucket.at) * rate) : 0;
    // Capped at twice the limit: a persistent guesser waits at most a window (and one drain) after stopping.
    const level = Math.min(drained + 1, 2 * limit);
    this.#buckets.delete(address); // re-inserted last: the Map's order is least recently failed first
    this.#buckets.set(address, { level, at: now });
    this.#forgetOldest();
    if (level <= limit) return undefined;
    // Until one more failure would fit under the limit again.
    return Math.max(1, Math.ceil((level + 1 - limit) / rate / 1000));
  }

  get tracked(): number {
    return this.#buckets.size;
  }

  /** Bounded memory: the addresses whose last failure is oldest go first (they have drained the most). */
  #forgetOldest(): void {
    for (const address of this.#buckets.keys()) {
      if (this.#buckets.size <= this.#maxClients) return;
      this.#buckets.delete(address);
    }
  }
}

/**
 * The address a request comes from: the socket's peer, or, behind `trustProxyHops` reverse
 * proxies that each append the address they saw to `X-Forwarded-For`, the entry that many places
 * from the end (the one the outermost trusted proxy saw; anything left of it the client may have
 * written itself). Undefined in-process (`app.request()`), where there is no socket.
 */
export function clientAddress(c: Context, trustProxyHops: number): string | undefined {
  if (trustProxyHops > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const entry = hops[hops.length - trustProxyHops];
    if (entry) return entry;
  }
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

export type AuthArea = 'webhooks' | 'erp' | 'admin' | 'metrics' | 'console';
export type AuthScheme = 'basic' | 'bearer' | 'form';

/**
 * What every authenticating route calls on a failed credential check: counts it in /metrics
 * (`wms_sync_auth_failures_total{area,scheme}`) and answers the route's own 401, or 429 with
 * `Retry-After` once the client address is over its limit (`wms_sync_auth_limited_total`).
 */
export class AuthFailures {
  readonly #failures: Counter<'area' | 'scheme'>;
  readonly #limited: Counter<'area' | 'scheme'>;

  constructor(
    readonly limiter: AuthFailureLimiter,
    private readonly trustProxyHops: number,
    registry: Registry,
  ) {
    const counter = (name: string, help: string) =>
      (registry.getSingleMetric(name) as Counter<'area' | 'scheme'> | undefined) ??
      new Counter({ name, help, labelNames: ['area', 'scheme'], registers: [registry] });
    this.#failures = counter(
      'wms_sync_auth_failures_total',
      'Requests with missing or wrong credentials (area: webhooks, erp, admin, metrics, console)',
    );
    this.#limited = counter(
      'wms_sync_auth_limited_total',
      'Failed authentications answered 429: the client address was over AUTH_FAILURE_LIMIT',
    );
  }

  /** The error to throw for a failed authentication: `unauthorized` itself, or a 429. */
  refusal(c: Context, area: AuthArea, scheme: AuthScheme, unauthorized: AppError): AppError {
    this.#failures.inc({ area, scheme });
    const address = clientAddress(c, this.trustProxyHops);
    // Every request over HTTP has an address; only in-process calls (tests) have none to limit.
    const wait = address === undefined ? undefined : this.limiter.fail(address);
    if (wait === undefined) return unauthorized;
    this.#limited.inc({ area, scheme });
    return new AppError(
      429,
      'too_many_requests',
      `Too many failed authentications from this address; retry in ${wait} s`,
      undefined,
      {
        'Retry-After': String(wait),
      },
    );
  }
}

/**
 * The error for a failed authentication on this request: 401, or 429 when the address is over its
 * limit. The app puts its `AuthFailures` on every request (`authFailures` variable), so routes
 * keep their plain signatures; without one (a room's app built alone) it is the 401.
 */
export function authRefusal(c: Context, area: AuthArea, scheme: AuthScheme, unauthorized: AppError): AppError {
  const failures = c.get('authFailures') as AuthFailures | undefined;
  return failures ? failures.refusal(c, area, scheme, unauthorized) : unauthorized;
}
