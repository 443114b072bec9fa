import type { Clock } from '../lib/clock.js';
import { emptyStarts, type Starts, takeStart } from './adaptive/pacer.js';
import {
  DEFAULT_RULES,
  initialState,
  isPaused,
  type LimitRules,
  type LimitState,
  onSample,
  permits,
  type Sample,
} from './adaptive/rules.js';
import type { SharedBudget, TimedSample } from './adaptive/share.js';

export type { LimitRules, LimitState, Sample } from './adaptive/rules.js';

/** Schedules a wake-up; returns its cancel. Tests pass one driven by their manual clock. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

const realTimer: SetTimer = (fn, ms) => {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
};

export interface AdaptiveLimiterOptions {
  /** WMS_MAX_CONCURRENCY: the limit never goes above it. */
  max: number;
  /** Where the limit starts (the old fixed default, 8, capped by `max`). */
  initial?: number;
  clock: Clock;
  setTimer?: SetTimer;
  rules?: Partial<Omit<LimitRules, 'max' | 'initial'>>;
  /** Several processes share the limit through it; in-process only when absent. */
  shared?: {
    budget: SharedBudget;
    connection: string;
    holder: string;
    syncMs?: number;
    onError?: (err: unknown) => void;
  };
  /** Observes every sample (metrics). */
  onSample?: (sample: Sample, limit: number) => void;
  /** This process's own event-loop lag (ms), which the latency rule tolerates on top; none when absent. */
  lagMs?: () => number;
}

/** How a finished call counts: a latency sample, an overload, a timeout, or nothing (it says nothing about load). */
export type Classify = (
  outcome: { ok: true; value?: unknown } | { ok: false; error: unknown },
  rttMs: number,
) => Sample | undefined;

/**
 * The calls in flight to one connection's WMS, bounded by an adaptive limit (rules in
 * adaptive/rules.ts) and, once the WMS answered 429, started no faster than the learned pace
 * (adaptive/pace.ts). Waiting calls start in arrival order. With a shared budget the limit and the
 * pace are the deployment's, and this process uses its share of them.
 */
export class AdaptiveLimiter {
  readonly rules: LimitRules;
  #state: LimitState;
  #share: number | undefined;
  /** This process's fraction of the pace (shared budget), 1 alone. */
  #fraction = 1;
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  #wake: { at: number; cancel: () => void } | undefined;
  /** This process's starts at its part of the pace. */
  #starts: Starts | undefined;
  /** The pace's decrease the starts last saw: a new one empties them (the WMS just refused). */
  #loweredAt: number | undefined;
  #pending: TimedSample[] = [];
  #syncing: Promise<void> | undefined;
  #syncTimer: (() => void) | undefined;
  #rateLimited = 0;
  #closed = false;
  /** Whether the first exchange was tried (a failed one is not awaited again by every call). */
  #exchanged = false;

  constructor(private readonly options: AdaptiveLimiterOptions) {
    if (!Number.isInteger(options.max) || options.max < 1)
      throw new Error(`AdaptiveLimiter: max must be a positive integer, got ${options.max}`);
    const initial = Math.min(options.max, options.initial ?? 8);
    this.rules = { ...DEFAULT_RULES, ...options.rules, max: options.max, initial };
    this.#state = initialState(this.rules, options.clock.nowMs());
  }

  /** The connection's current limit (the deployment's, when shared). */
  get limit(): number {
    return permits(this.#state);
  }

  /** Calls this process may have in flight now. */
  get allowed(): number {
    return Math.min(this.limit, this.#share ?? this.limit);
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** 429 answers seen by this process. */
  get rateLimited(): number {
    return this.#rateLimited;
  }

  get state(): LimitState {
    return this.#state;
  }

  get pausedUntil(): number {
    return this.#state.pausedUntil;
  }

  /** Calls per second the connection starts at most (the deployment's, when shared); null until a 429 set it. */
  get pace(): number | null {
    return this.#state.pace?.perSecond ?? null;
  }

  /** Calls per second this process starts at most: its part of the pace, in proportion to its demand (null: no pace). */
  get ownPace(): number | null {
    const pace = this.pace;
    return pace === null ? null : pace * this.#fraction;
  }

  async run<T>(fn: () => Promise<T>, classify: Classify): Promise<T> {
    if (this.options.shared) {
      // The first call learns the deployment's limit and its share before it goes out.
      if (!this.#exchanged) await this.sync();
      this.#keepSyncing();
    }
    if (this.#waiting.length > 0 || !this.#tryStart()) {
      await new Promise<void>((resolve) => {
        this.#waiting.push(resolve);
        this.#pump();
      });
    }
    const saturated = this.#active * 2 >= this.allowed;
    const started = this.options.clock.nowMs();
    try {
      const value = await fn();
      this.#record(classify({ ok: true, value }, this.options.clock.nowMs() - started), saturated);
      return value;
    } catch (err) {
      this.#record(classify({ ok: false, error: err }, this.options.clock.nowMs() - started), saturated);
      throw err;
    } finally {
      this.#active -= 1;
      this.#pump();
    }
  }

  /** Exchanges samples with the shared budget now (tests and the periodic sync call it). */
  sync(): Promise<void> {
    const shared = this.options.shared;
    if (!shared || this.#closed) return Promise.resolve();
    this.#exchanged = true;
    this.#syncing ??= (async () => {
      const samples = this.#pending;
      this.#pending = [];
      try {
        const result = await shared.budget.exchange({
          connection: shared.connection,
          holder: shared.holder,
          samples,
          demand: this.#active + this.#waiting.length,
          nowMs: this.options.clock.nowMs(),
          rules: this.rules,
        });
        this.#state = result.state;
        this.#share = result.share;
        this.#fraction = result.fraction ?? 1;
      } catch (err) {
        // The database is away: keep the local view and hand these samples over next time.
        this.#pending = [...samples, ...this.#pending];
        shared.onError?.(err);
      } finally {
        this.#syncing = undefined;
        this.#pump();
      }
    })();
    return this.#syncing;
  }

  /**
   * Exchanges with the shared budget every `syncMs` while this process has calls in flight or
   * waiting, then once more to report it has none, and stops: an idle connection costs the
   * database nothing.
   */
  #keepSyncing(): void {
    const shared = this.options.shared;
    if (!shared || this.#syncTimer || this.#closed) return;
    this.#syncTimer = this.#timer(() => {
      void this.sync().finally(() => {
        this.#syncTimer = undefined;
        if (this.#active + this.#waiting.length > 0 || this.#pending.length > 0) this.#keepSyncing();
      });
    }, shared.syncMs ?? 100);
  }

  async close(): Promise<void> {
    this.#syncTimer?.();
    this.#syncTimer = undefined;
    await this.#syncing;
    this.#closed = true;
    const shared = this.options.shared;
    if (shared)
      await shared.budget.leave(shared.connection, shared.holder).catch((err: unknown) => shared.onError?.(err));
  }

  #timer(fn: () => void, ms: number): () => void {
    return (this.options.setTimer ?? realTimer)(fn, ms);
  }

  /**
   * Takes a slot if a call may start now (in the limit, not paused, the pace allows it); otherwise
   * returns false, having set a wake-up for when the pause or the pace lets the next one go.
   */
  #tryStart(): boolean {
    const now = this.options.clock.nowMs();
    if (this.#active >= this.allowed) return false;
    if (isPaused(this.#state, now)) {
      this.#wakeAt(this.#state.pausedUntil, now);
      return false;
    }
    const pace = this.ownPace;
    if (pace !== null) {
      const loweredAt = this.#state.pace!.loweredAt;
      if (!this.#starts || this.#loweredAt !== loweredAt) this.#starts = emptyStarts(now);
      this.#loweredAt = loweredAt;
      const taken = takeStart(this.#starts, pace, now);
      this.#starts = taken.starts;
      if (!taken.ok) {
        this.#wakeAt(now + taken.waitMs, now);
        return false;
      }
    }
    this.#active += 1;
    return true;
  }

  /** Pumps again at `at` (the earliest wake-up asked for wins). */
  #wakeAt(at: number, now: number): void {
    if (this.#wake && this.#wake.at <= at) return;
    this.#wake?.cancel();
    const wake = {
      at,
      cancel: this.#timer(() => {
        if (this.#wake === wake) this.#wake = undefined;
        this.#pump();
      }, at - now),
    };
    this.#wake = wake;
  }

  #record(sample: Sample | undefined, saturated: boolean): void {
    if (!sample) return;
    const lag = sample.kind === 'ok' && this.options.lagMs ? this.options.lagMs() : 0;
    // Calls wait while the limit had room even with this one in flight: the pace (or a pause) holds them back.
    const paced = this.#state.pace != null && this.#waiting.length > 0 && this.#active < this.allowed;
    const s: Sample =
      sample.kind === 'ok'
        ? { ...sample, saturated, ...(lag > 0 ? { lagMs: lag } : {}), ...(paced ? { paced } : {}) }
        : sample;
    if (s.kind === 'overload' && s.status === 429) this.#rateLimited += 1;
    const now = this.options.clock.nowMs();
    this.#state = onSample(this.rules, this.#state, s, now);
    this.options.onSample?.(s, this.limit);
    if (this.options.shared) {
      this.#pending.push({ sample: s, atMs: now });
      // The others should stop at once too, not at the next tick.
      if (s.kind !== 'ok') void this.sync();
    }
  }

  #pump(): void {
    while (this.#waiting.length > 0 && this.#tryStart()) this.#waiting.shift()!();
  }
}
