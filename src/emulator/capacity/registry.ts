import type { Clock } from '../../lib/clock.js';
import { Gate } from './gate.js';
import { newBucket, type TokenBucket, take } from './token-bucket.js';

/** What a tenant's WMS can take; each part left out is unlimited (latency: none). */
export interface CapacityInput {
  ratePerSecond?: number | undefined;
  /** Requests the rate limit lets through at once after a quiet spell; defaults to one second's worth. */
  burst?: number | undefined;
  concurrency?: number | undefined;
  latencyMs?: number | undefined;
}

export interface Capacity {
  ratePerSecond: number | null;
  burst: number | null;
  concurrency: number | null;
  latencyMs: number;
  /** Counters since it was set: requests admitted, refused with 429, and those waiting for a slot now. */
  stats: { admitted: number; limited: number; queued: number; active: number };
}

interface TenantCapacity {
  input: CapacityInput;
  bucket: TokenBucket | undefined;
  gate: Gate | undefined;
  admitted: number;
  limited: number;
}

export type Admission =
  | { ok: false; retryAfterSeconds: number }
  | { ok: true; serve<T>(fn: () => Promise<T>): Promise<T> };

const FREE: Admission = { ok: true, serve: (fn) => fn() };

/**
 * The capacity model of each tenant's emulated WMS, in memory (like faults: not part of the state
 * or snapshots). Off for a tenant until set: then the emulator answers as it always did.
 */
export class CapacityRegistry {
  readonly #tenants = new Map<string, TenantCapacity>();

  /**
   * `clock` runs the rate; `sleep` and `elapsed` the latency, on one timeline: real time (a
   * monotonic clock, finer than the ms of `Date.now()`, so no answer leaves early), or a test's.
   */
  constructor(
    private readonly clock: Clock,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly elapsed: () => number,
  ) {}

  set(tenant: string, input: CapacityInput): Capacity {
    const now = this.clock.nowMs();
    const rate = input.ratePerSecond;
    const burst = rate === undefined ? undefined : (input.burst ?? Math.max(1, Math.ceil(rate)));
    const entry: TenantCapacity = {
      input: { ...input, ...(burst !== undefined ? { burst } : {}) },
      bucket: rate === undefined ? undefined : newBucket(rate, burst!, now),
      gate: input.concurrency === undefined ? undefined : new Gate(input.concurrency),
      admitted: 0,
      limited: 0,
    };
    // Requests already queued behind the old gate finish there; new ones see the new model.
    this.#tenants.set(tenant, entry);
    return view(entry);
  }

  get(tenant: string): Capacity | undefined {
    const entry = this.#tenants.get(tenant);
    return entry ? view(entry) : undefined;
  }

  remove(tenant: string): boolean {
    return this.#tenants.delete(tenant);
  }

  clear(): void {
    this.#tenants.clear();
  }

  /**
   * Decides at arrival: over the rate, refused (with the whole seconds to wait, as Retry-After
   * carries them); otherwise served once a slot is free, never sooner than the base latency.
   */
  admit(tenant: string): Admission {
    const entry = this.#tenants.get(tenant);
    if (!entry) return FREE;
    if (entry.bucket) {
      const taken = take(entry.bucket, this.clock.nowMs());
      if (!taken.ok) {
        entry.limited += 1;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(taken.waitMs / 1000)) };
      }
    }
    entry.admitted += 1;
    const { gate } = entry;
    const latencyMs = entry.input.latencyMs ?? 0;
    return {
      ok: true,
      serve: async (fn) => {
        await gate?.enter();
        const entered = this.elapsed();
        try {
          return await fn();
        } finally {
          // The base latency is the call's whole service time, its work included, and holds the
          // slot: concurrency / latency is the throughput the tenant was given. Waiting the latency
          // and then working added the emulator's own CPU (and its wait for a core) to every call.
          const left = latencyMs - (this.elapsed() - entered);
          if (left > 0) await this.sleep(left);
          gate?.leave();
        }
      },
    };
  }
}

function view(entry: TenantCapacity): Capacity {
  return {
    ratePerSecond: entry.input.ratePerSecond ?? null,
    burst: entry.input.burst ?? null,
    concurrency: entry.input.concurrency ?? null,
    latencyMs: entry.input.latencyMs ?? 0,
    stats: {
      admitted: entry.admitted,
      limited: entry.limited,
      queued: entry.gate?.queued ?? 0,
      active: entry.gate?.active ?? 0,
    },
  };
}
