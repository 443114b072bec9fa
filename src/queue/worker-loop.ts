import type { EventEmitter } from 'node:events';
import { isStoreUnavailable } from '../store/unavailable.js';
import type { Job, JobHandler, QueueEvents, WorkOptions } from './types.js';
import { toError } from './types.js';

/** The first delay before a job whose handler failed because the store failed runs again. */
export const STORE_RETRY_DELAY_MS = 1000;
/** The longest such delay, reached after consecutive store failures (a disk that stays full). */
export const STORE_RETRY_MAX_DELAY_MS = 30_000;

/** What an adapter provides so the shared loop can run its jobs. */
export interface LoopDriver {
  fetch(name: string, batchSize: number): Promise<Job[]>;
  complete(name: string, ids: string[]): Promise<void>;
  /** Records the failure; returns true when the job is now dead (no retry left). */
  fail(name: string, job: Job, error: Error): Promise<boolean>;
  /**
   * Puts a running job back in line after `delayMs` without counting the attempt (the store failed,
   * not the job); returns true when the job is now dead (an adapter may have to count it after all).
   */
  release(name: string, job: Job, error: Error, delayMs: number): Promise<boolean>;
  /** Renews the leases of these running jobs (the worker's heartbeat). */
  renew(name: string, ids: string[]): Promise<void>;
}

/**
 * Fetch loops for one queue name. Unlike pg-boss's own `work()`, a loop that got a full batch
 * fetches again at once instead of waiting out the polling interval, and a local send wakes an
 * idle loop immediately; only an idle loop waits `pollIntervalMs` (for other processes' sends).
 * While a batch runs, its jobs' leases are renewed every `heartbeatMs` (each job until it has run
 * its `expireInSeconds`), so a live worker keeps its jobs however long they take and a dead one
 * loses them one lease later.
 *
 * A handler that failed because the store failed (`isStoreUnavailable`: unreachable, locked, disk
 * full) did not fail its job: the job goes back in line without spending an attempt, after a delay
 * that grows while the store keeps failing, so a long outage never turns acknowledged work dead.
 * Recording an outcome that the store refuses is tried again until it is recorded (or the loop
 * stops), with the leases still renewed: a living process never leaves its jobs active.
 */
export class WorkerLoop {
  readonly #loops: Promise<void>[] = [];
  readonly #heartbeats = new Set<NodeJS.Timeout>();
  readonly #sleepers = new Set<() => void>();
  #pendingWake = false;
  #wakeScheduled = false;
  #stopping = false;
  /** Set once `stop` returned: leases of jobs still running are no longer renewed. */
  #stopped = false;
  readonly #batchSize: number;
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #storeRetryMs: number;
  /** Consecutive handler failures caused by the store: the next release waits longer. */
  #storeFailures = 0;
  readonly #pauses = new Set<() => void>();

  constructor(
    readonly name: string,
    options: WorkOptions,
    private readonly handler: JobHandler<unknown>,
    private readonly driver: LoopDriver,
    private readonly events: EventEmitter<QueueEvents>,
    private readonly heartbeatMs: number,
    storeRetryMs = STORE_RETRY_DELAY_MS,
  ) {
    this.#storeRetryMs = storeRetryMs;
    this.#batchSize = options.batchSize ?? 1;
    this.#concurrency = options.concurrency ?? 1;
    this.#pollMs = options.pollIntervalMs ?? 1000;
  }

  start(): void {
    for (let i = 0; i < this.#concurrency; i++) this.#loops.push(this.#run());
  }

  /**
   * Wakes idle loops on the next turn of the event loop rather than at once, so that a burst of
   * sends made in one go is fetched as one batch instead of one fetch per job.
   */
  wake(): void {
    this.#pendingWake = true;
    if (this.#wakeScheduled || this.#sleepers.size === 0) return;
    this.#wakeScheduled = true;
    setImmediate(() => {
      this.#wakeScheduled = false;
      for (const wake of this.#sleepers) wake();
    });
  }

  /**
   * Stops fetching; resolves when every loop has finished its current batch, or after `graceMs`.
   * A job still running then is no longer renewed: its lease runs out and it runs again elsewhere.
   */
  async stop(graceMs: number): Promise<boolean> {
    this.#stopping = true;
    for (const wake of this.#sleepers) wake();
    for (const end of this.#pauses) end();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
    const done = Promise.all(this.#loops).then(() => true as const);
    const finished = await Promise.race([done, timeout]);
    clearTimeout(timer);
    this.#stopped = true;
    for (const heartbeat of this.#heartbeats) clearInterval(heartbeat);
    this.#heartbeats.clear();
    return finished;
  }

  async #run(): Promise<void> {
    let errorBackoff = 100;
    while (!this.#stopping) {
      let jobs: Job[];
      try {
        this.#pendingWake = false;
        jobs = await this.driver.fetch(this.name, this.#batchSize);
        errorBackoff = 100;
      } catch (err) {
        // The database is unreachable or busy: report, back off (up to 5 s), and try again.
        this.#reportError(err);
        await this.#sleep(errorBackoff);
        errorBackoff = Math.min(errorBackoff * 2, 5000);
        continue;
      }
      if (jobs.length === 0) {
        await this.#sleep(this.#pollMs);
        continue;
      }
      await this.#runBatch(jobs);
      if (jobs.length < this.#batchSize) await this.#sleep(this.#pollMs);
    }
  }

  async #runBatch(jobs: Job[]): Promise<void> {
    const heartbeat = this.#heartbeat(jobs);
    try {
      await this.#settle(jobs);
    } finally {
      clearInterval(heartbeat);
      this.#heartbeats.delete(heartbeat);
    }
  }

  /**
   * Renews the batch's leases until its jobs are completed or failed. A job past its
   * `expireInSeconds` is left to expire: its handler is taken as stuck. A renewal still in flight
   * (a slow database) is not doubled.
   */
  #heartbeat(jobs: Job[]): NodeJS.Timeout {
    const startedAt = Date.now();
    let renewing = false;
    const timer = setInterval(() => {
      if (renewing || this.#stopped) return;
      const elapsed = Date.now() - startedAt;
      const ids = jobs.filter((j) => elapsed < j.expireInSeconds * 1000).map((j) => j.id);
      if (ids.length === 0) return;
      renewing = true;
      this.driver
        .renew(this.name, ids)
        .catch((err: unknown) => this.#reportError(err))
        .finally(() => (renewing = false));
    }, this.heartbeatMs);
    timer.unref();
    this.#heartbeats.add(timer);
    return timer;
  }

  async #settle(jobs: Job[]): Promise<void> {
    const outcomes = await Promise.all(
      jobs.map(async (job) => {
        try {
          await this.handler(job);
          return { job, error: undefined };
        } catch (err) {
          return { job, error: toError(err) };
        }
      }),
    );
    const done = outcomes.filter((o) => !o.error).map((o) => o.job.id);
    if (done.length > 0 && (await this.#record(() => this.driver.complete(this.name, done))) !== undefined) {
      for (const id of done) this.events.emit('completed', { name: this.name, id });
    }
    for (const { job, error } of outcomes) {
      if (!error) continue;
      const storeFailed = isStoreUnavailable(error);
      const delayMs = storeFailed ? this.#storeDelayMs() : 0;
      const dead = await this.#record(() =>
        storeFailed ? this.driver.release(this.name, job, error, delayMs) : this.driver.fail(this.name, job, error),
      );
      if (dead) this.events.emit('failed', { name: this.name, id: job.id, error, dead: dead.value });
    }
    if (done.length > 0) this.#storeFailures = 0;
  }

  #storeDelayMs(): number {
    const delay = Math.min(this.#storeRetryMs * 2 ** this.#storeFailures, STORE_RETRY_MAX_DELAY_MS);
    this.#storeFailures = Math.min(this.#storeFailures + 1, 16);
    return delay;
  }

  /**
   * Runs a write of the job's outcome; while the store is unavailable, again after a pause (up to
   * 5 s) until it is written or the loop stops. Undefined when it was not written: another error,
   * or the loop stopped (the lease then runs out and the job runs again; handlers are idempotent).
   */
  async #record<T>(write: () => Promise<T>): Promise<{ value: T } | undefined> {
    let pauseMs = 100;
    for (;;) {
      try {
        return { value: await write() };
      } catch (err) {
        this.#reportError(err);
        if (this.#stopping || !isStoreUnavailable(err)) return undefined;
        await this.#pause(pauseMs);
        pauseMs = Math.min(pauseMs * 2, 5000);
      }
    }
  }

  /** Waits `ms`, or less when the loop stops (a wake does not end it). */
  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.#pauses.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.#pauses.add(end);
    });
  }

  #reportError(err: unknown): void {
    // An 'error' event nobody listens to would throw and kill the loop; the runtime listens and logs.
    if (this.events.listenerCount('error') > 0) this.events.emit('error', toError(err));
    else console.error(`[queue ${this.name}]`, err);
  }

  /** Waits `ms`, or less when woken; returns at once when a wake came since the last fetch. */
  #sleep(ms: number): Promise<void> {
    if (this.#pendingWake || this.#stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#sleepers.add(wake);
    });
  }
}
