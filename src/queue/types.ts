import type { EventEmitter } from 'node:events';
import { backoffDelayMs } from '../lib/backoff.js';
import type { JobsInStatement, StoreTx } from '../store/types.js';

export type { JobsInStatement };

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'failed', 'cancelled'] as const;
/** `failed` is the dead state: the last retry failed too; the error is kept in `output`. */
export type JobState = (typeof JOB_STATES)[number];

export interface RetryOptions {
  /** Further attempts after the first failure (so at most retryLimit + 1 runs). */
  retryLimit?: number;
  /** Seconds before a retry. */
  retryDelay?: number;
  /**
   * Grow the delay at each retry, with jitter. The embedded queue takes it from `lib/backoff.ts`
   * (full jitter: a random point in [0, delay × 2^n], capped at an hour); pg-boss keeps its own
   * formula (delay × 2^n × (1 + random)). Callers rely on neither exact formula.
   */
  retryBackoff?: boolean;
  /**
   * The longest one attempt may run. Past it the worker stops renewing the job's lease, so a stuck
   * handler is taken as failed and the job retried. A job whose worker died runs again much sooner:
   * once its lease (`leaseSeconds` of the adapter, renewed by the worker's heartbeat) runs out.
   */
  expireInSeconds?: number;
}

export interface QueueOptions extends RetryOptions {
  /**
   * `stately`: per singleton key at most one job waits (per waiting state) and one runs; a send
   * that would make a second one wait is dropped (returns null). Jobs without a key share one key.
   */
  policy?: 'standard' | 'stately';
}

export interface SendOptions extends RetryOptions {
  singletonKey?: string;
  /** Seconds from now, or a date. */
  startAfter?: number | Date;
  /** Enqueue inside this store transaction: the job exists if and only if the transaction commits. */
  tx?: StoreTx;
}

export interface WorkOptions {
  /** Jobs fetched at once by one loop, run in parallel, and completed in one statement. */
  batchSize?: number;
  /** Fetch loops running side by side. */
  concurrency?: number;
  /** How long an idle loop waits before looking again (a local send wakes it at once). */
  pollIntervalMs?: number;
}

export interface Job<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** Failed attempts before this one. */
  retryCount: number;
  retryLimit: number;
  /** The longest this attempt may run (see `RetryOptions.expireInSeconds`). */
  expireInSeconds: number;
}

export type JobHandler<T = unknown> = (job: Job<T>) => Promise<void>;

export interface JobInfo<T = unknown> extends Job<T> {
  state: JobState;
  singletonKey: string | null;
  startAfter: Date;
  createdAt: Date;
  completedAt: Date | null;
  /** For failed jobs: `{ message, stack? }` of the last error. */
  output: unknown;
}

/** Jobs waiting to run: how deep the queue is and how long its oldest ready job has waited. */
export interface QueueBacklog {
  /** Jobs in created or retry, delayed ones included. */
  waiting: number;
  /** Of those, the jobs whose start time has come: they wait only for a worker. */
  ready: number;
  /** The start time of the oldest ready job (its lag is now minus this); null when none is ready. */
  oldestReadyAt: Date | null;
}

export interface QueueEvents {
  completed: [{ name: string; id: string }];
  failed: [{ name: string; id: string; error: Error; dead: boolean }];
  error: [Error];
}

export interface Queue extends EventEmitter<QueueEvents> {
  readonly kind: 'sqlite' | 'pgboss';
  start(): Promise<void>;
  /**
   * Stops fetching, waits up to `graceMs` for running handlers, then stops timers. Resolves true
   * when every handler had ended, false when some were still running at the end of the grace.
   */
  stop(options?: { graceMs?: number }): Promise<boolean>;
  createQueue(name: string, options?: QueueOptions): Promise<void>;
  /** Returns the job id, or null when a stately queue already holds a waiting job with that key. */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;
  sendMany<T extends object>(
    name: string,
    items: { data: T; options?: Omit<SendOptions, 'tx'> }[],
    options?: { tx?: StoreTx },
  ): Promise<void>;
  work<T>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void>;
  /** Sends a job to `name` at each cron tick (5 fields, or 6 with seconds on the embedded queue). */
  schedule(name: string, cron: string, data?: object, options?: { tz?: string }): Promise<void>;
  unschedule(name: string): Promise<void>;
  getJob<T = unknown>(name: string, id: string): Promise<JobInfo<T> | undefined>;
  listDead(options?: { name?: string; limit?: number }): Promise<JobInfo[]>;
  /** Puts a dead job back in line with one more attempt; false when it is not dead. */
  retryDead(name: string, id: string): Promise<boolean>;
  counts(name?: string): Promise<Record<JobState, number>>;
  /** Depth of the queue (one name, or every queue) and the age of its oldest ready job. */
  backlog(name?: string): Promise<QueueBacklog>;
  ping(): Promise<void>;
  /**
   * Only a queue whose jobs are rows of the store's own Postgres database (pg-boss): lets a caller
   * insert jobs inside a statement of its own, so that rows and their jobs are written by one
   * atomic statement, one round trip, without BEGIN/COMMIT (the receiver's acknowledgement).
   */
  jobsInStatement?(name: string, options: RetryOptions): Promise<JobsInStatement>;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retryLimit: 5,
  retryDelay: 2,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/**
 * A running job's lease: how long a job whose worker shows no sign of life stays claimed before
 * another worker runs it again. Workers renew the leases of the jobs they run every fifth of it
 * (their heartbeat), so only a dead or frozen process loses its jobs, and after `kill -9` its jobs
 * run again about this long later. The same in every process sharing a database.
 */
export const DEFAULT_LEASE_SECONDS = 10;

/** The error of a job whose lease ran out, as `failed` events and the job's output give it. */
export const LEASE_EXPIRED = 'lease expired: its worker died, froze, or ran past expireInSeconds';

/** How often a worker renews the leases of its running jobs: five times per lease. */
export function heartbeatMs(leaseSeconds: number): number {
  return Math.max(50, Math.floor((leaseSeconds * 1000) / 5));
}

/** The longest retry delay of the embedded queue. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

export function emptyCounts(): Record<JobState, number> {
  return Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
}

/** `{ message, stack }` of a thrown value, as stored in a failed job's output. */
export function serializeError(err: unknown): { message: string; stack?: string } {
  if (err instanceof Error) return { message: err.message, ...(err.stack ? { stack: err.stack } : {}) };
  return { message: typeof err === 'string' ? err : JSON.stringify(err) };
}

export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(typeof err === 'string' ? err : JSON.stringify(err));
}

/**
 * The embedded queue's delay before the retry that follows `retryCount` earlier failures: the
 * project's one retry-delay rule (`lib/backoff.ts`), or exactly `retryDelay` without backoff.
 */
export function jobRetryDelayMs(
  retry: { retryDelay: number; retryBackoff: boolean },
  retryCount: number,
  random?: number,
): number {
  const baseMs = retry.retryDelay * 1000;
  if (!retry.retryBackoff) return baseMs;
  return backoffDelayMs(
    { baseMs, maxMs: Math.max(baseMs, MAX_RETRY_DELAY_MS) },
    retryCount,
    random === undefined ? {} : { random },
  );
}
