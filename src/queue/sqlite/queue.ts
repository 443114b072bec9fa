import { EventEmitter } from 'node:events';
import cronParser from 'cron-parser';
import { type Clock, systemClock } from '../../lib/clock.js';
import type { SqliteDatabase } from '../../store/sqlite/database.js';
import type { StoreTx } from '../../store/types.js';
import {
  DEFAULT_LEASE_SECONDS,
  DEFAULT_RETRY,
  emptyCounts,
  heartbeatMs,
  type Job,
  type JobHandler,
  type JobInfo,
  jobRetryDelayMs,
  LEASE_EXPIRED,
  type Queue,
  type QueueBacklog,
  type QueueEvents,
  type QueueOptions,
  type SendOptions,
  serializeError,
  type WorkOptions,
} from '../types.js';
import { STORE_RETRY_DELAY_MS, WorkerLoop } from '../worker-loop.js';
import { type InsertParams, type JobRow, prepareStatements, type Statements } from './statements.js';

export interface SqliteQueueOptions {
  /** How often leases are checked and old jobs purged. */
  maintenanceIntervalMs?: number;
  /** A running job's lease (see `DEFAULT_LEASE_SECONDS`). */
  leaseSeconds?: number;
  /** The first delay before a job whose handler failed because the store failed runs again. */
  storeRetryDelayMs?: number;
  /** The queue's time (start-after, leases, retry delays); tests pass a `ManualClock`. */
  clock?: Clock;
  /** The jitter of retry delays, a number in [0, 1); tests pass a fixed one. */
  random?: () => number;
  /** How often schedules are checked. */
  cronIntervalMs?: number;
  completedRetentionMs?: number;
  failedRetentionMs?: number;
}

/**
 * The embedded queue: jobs in the store's SQLite file, claimed with one UPDATE … RETURNING, retried
 * after the delays of `lib/backoff.ts`, leased (and the leases renewed while the job runs) so a
 * killed worker's job runs again. Every statement goes through the store's lock, so a job sent
 * with `{ tx }` commits or rolls back with that transaction.
 */
export class SqliteQueue extends EventEmitter<QueueEvents> implements Queue {
  readonly kind = 'sqlite' as const;
  #stmts: Statements | undefined;
  readonly #loops = new Map<string, WorkerLoop[]>();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #options: Required<Omit<SqliteQueueOptions, 'clock' | 'random'>>;
  readonly #clock: Clock;
  readonly #random: () => number;
  #started = false;

  constructor(
    private readonly database: SqliteDatabase,
    options: SqliteQueueOptions = {},
  ) {
    super();
    this.#options = {
      maintenanceIntervalMs: options.maintenanceIntervalMs ?? 2_000,
      leaseSeconds: options.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
      cronIntervalMs: options.cronIntervalMs ?? 5_000,
      storeRetryDelayMs: options.storeRetryDelayMs ?? STORE_RETRY_DELAY_MS,
      completedRetentionMs: options.completedRetentionMs ?? 60 * 60 * 1000,
      failedRetentionMs: options.failedRetentionMs ?? 30 * 24 * 60 * 60 * 1000,
    };
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
  }

  #now(): number {
    return this.#clock.nowMs();
  }

  get #s(): Statements {
    this.#stmts ??= prepareStatements(this.database.raw);
    return this.#stmts;
  }

  #run<T>(fn: () => T): Promise<T> {
    return this.database.lock.run(fn);
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const every = (ms: number, fn: () => unknown) => {
      const timer = setInterval(() => {
        Promise.resolve()
          .then(fn)
          .catch((err: unknown) => this.emit('error', err as Error));
      }, ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(this.#options.maintenanceIntervalMs, () => this.maintain());
    every(this.#options.cronIntervalMs, () => this.tickCron());
  }

  async stop(options: { graceMs?: number } = {}): Promise<boolean> {
    const loops = [...this.#loops.values()].flat();
    this.#loops.clear();
    const ended = await Promise.all(loops.map((l) => l.stop(options.graceMs ?? 10_000)));
    for (const t of this.#timers.splice(0)) clearInterval(t);
    this.#started = false;
    return ended.every(Boolean);
  }

  async createQueue(name: string, options: QueueOptions = {}): Promise<void> {
    await this.#run(() =>
      this.#s.upsertQueue.run({
        name,
        policy: options.policy ?? 'standard',
        retry_limit: options.retryLimit ?? null,
        retry_delay: options.retryDelay ?? null,
        retry_backoff: options.retryBackoff === undefined ? null : Number(options.retryBackoff),
        expire_in_seconds: options.expireInSeconds ?? null,
        now: this.#now(),
      }),
    );
  }

  #insertParams(name: string, data: object, options: Omit<SendOptions, 'tx'>): InsertParams {
    const q = this.#s.getQueue.get({ name });
    const now = this.#now();
    const startAfter =
      options.startAfter instanceof Date
        ? options.startAfter.getTime()
        : options.startAfter !== undefined
          ? now + options.startAfter * 1000
          : now;
    return {
      name,
      data: JSON.stringify(data),
      policy: q?.policy ?? 'standard',
      retry_limit: options.retryLimit ?? q?.retry_limit ?? DEFAULT_RETRY.retryLimit,
      retry_delay: options.retryDelay ?? q?.retry_delay ?? DEFAULT_RETRY.retryDelay,
      retry_backoff: Number(
        options.retryBackoff ??
          (q?.retry_backoff === null || q === undefined ? DEFAULT_RETRY.retryBackoff : q.retry_backoff === 1),
      ) as 0 | 1,
      expire_in_seconds: options.expireInSeconds ?? q?.expire_in_seconds ?? DEFAULT_RETRY.expireInSeconds,
      singleton_key: options.singletonKey ?? '',
      start_after: startAfter,
      now,
    };
  }

  /** Inserts now (in the caller's open transaction when `tx` is given) and wakes local workers after commit. */
  #insert(
    tx: StoreTx | undefined,
    name: string,
    items: { data: object; options?: Omit<SendOptions, 'tx'> }[],
  ): Promise<(string | null)[]> {
    const write = () =>
      items.map(({ data, options }) => {
        const row = this.#s.insert.get(this.#insertParams(name, data, options ?? {}));
        return row ? String(row.id) : null;
      });
    if (tx) {
      if (tx.handle.dialect !== 'sqlite') throw new Error('a Postgres transaction was passed to the SQLite queue');
      const ids = write();
      tx.afterCommit(() => this.#wake(name));
      return Promise.resolve(ids);
    }
    // IMMEDIATE: the write lock first. A deferred transaction reads (the queue's settings) before it
    // writes, and SQLite fails it at once with SQLITE_BUSY when another process wrote meanwhile.
    return this.#run(() => this.database.raw.transaction(write).immediate()).then((ids) => {
      this.#wake(name);
      return ids;
    });
  }

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    const { tx, ...rest } = options;
    const [id] = await this.#insert(tx, name, [{ data, options: rest }]);
    return id ?? null;
  }

  async sendMany<T extends object>(
    name: string,
    items: { data: T; options?: Omit<SendOptions, 'tx'> }[],
    options: { tx?: StoreTx } = {},
  ): Promise<void> {
    await this.#insert(options.tx, name, items);
  }

  #wake(name: string): void {
    for (const loop of this.#loops.get(name) ?? []) loop.wake();
  }

  async work<T>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    const loop = new WorkerLoop(
      name,
      options,
      handler as JobHandler<unknown>,
      this.#driver(),
      this,
      heartbeatMs(this.#options.leaseSeconds),
      this.#options.storeRetryDelayMs,
    );
    this.#loops.set(name, [...(this.#loops.get(name) ?? []), loop]);
    loop.start();
    // A process starting to work a queue (a restart after a crash) looks for abandoned jobs at once.
    if (this.#started) this.maintain().catch((err: unknown) => this.emit('error', err as Error));
  }

  #driver() {
    return {
      fetch: (name: string, batchSize: number) => this.#run(() => this.#claim(name, batchSize)),
      complete: (_name: string, ids: string[]) =>
        this.#run(() => {
          this.#s.complete.run({ ids: JSON.stringify(ids.map(Number)), now: this.#now() });
        }),
      fail: (_name: string, job: Job, error: Error) =>
        this.#run(() => this.#fail(Number(job.id), serializeError(error))),
      release: (_name: string, job: Job, error: Error, delayMs: number) =>
        this.#run(() => this.#release(Number(job.id), serializeError(error), delayMs)),
      renew: (_name: string, ids: string[]) =>
        this.#run(() => {
          this.#s.renew.run({
            ids: JSON.stringify(ids.map(Number)),
            now: this.#now(),
            lease: this.#options.leaseSeconds,
          });
        }),
    };
  }

  #claim(name: string, batchSize: number): Job[] {
    const now = this.#now();
    if (this.#s.anyClaimable.get({ name, now }) === undefined) return [];
    const policy = this.#s.getQueue.get({ name })?.policy ?? 'standard';
    let rows: JobRow[];
    if (policy === 'stately') {
      rows = [];
      for (let i = 0; i < batchSize; i++) {
        const row = this.#s.claimStately.get({ name, now, lease: this.#options.leaseSeconds });
        if (!row) break;
        rows.push(row);
      }
    } else {
      rows = this.#s.claim.all({ name, now, n: batchSize, lease: this.#options.leaseSeconds });
    }
    return rows.sort((a, b) => a.id - b.id).map(toJob);
  }

  /**
   * Back in line after `delayMs`, its attempt not counted; a stately queue that already holds a
   * retry for the key gets a counted failure instead (that retry carries the work forward).
   */
  #release(id: number, output: { message: string; stack?: string }, delayMs: number): boolean {
    try {
      this.#s.release.run({ id, start_after: this.#now() + delayMs, output: JSON.stringify(output) });
      return false;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw err;
      return this.#fail(id, output);
    }
  }

  /**
   * Retry after the backoff delay (at once when the lease ran out: the worker died, not the job),
   * or dead when no retry is left. Returns true when dead.
   */
  #fail(id: number, output: { message: string; stack?: string }, leaseExpired = false): boolean {
    const row = this.#s.get.get({ id });
    if (row?.state !== 'active') return false;
    const now = this.#now();
    const json = JSON.stringify(output);
    if (row.retry_count < row.retry_limit) {
      const delay = leaseExpired
        ? 0
        : jobRetryDelayMs(
            { retryDelay: row.retry_delay, retryBackoff: row.retry_backoff === 1 },
            row.retry_count,
            this.#random(),
          );
      try {
        this.#s.retry.run({ id, start_after: now + delay, output: json });
        return false;
      } catch {
        // A stately queue already holds a retry for this key: that one carries the work forward.
      }
    }
    this.#s.dead.run({ id, now, output: json });
    return true;
  }

  /**
   * Puts back in line the jobs, of the queues this process works, whose lease ran out (their worker
   * died, froze, or ran past `expireInSeconds`), and purges old finished jobs.
   */
  async maintain(): Promise<void> {
    const names = JSON.stringify([...this.#loops.keys()]);
    const expired = await this.#run(() =>
      this.database.raw
        .transaction(() => {
          const rows = this.#s.expired.all({ now: this.#now(), names });
          return rows.map((row) => ({ row, dead: this.#fail(row.id, { message: LEASE_EXPIRED }, true) }));
        })
        .immediate(),
    );
    for (const { row, dead } of expired) {
      this.emit('failed', { name: row.name, id: String(row.id), error: new Error(LEASE_EXPIRED), dead });
      if (!dead) this.#wake(row.name);
    }
    const now = this.#now();
    await this.#run(() =>
      this.#s.purge.run({
        completedBefore: now - this.#options.completedRetentionMs,
        failedBefore: now - this.#options.failedRetentionMs,
      }),
    );
  }

  async schedule(name: string, cron: string, data: object = {}, options: { tz?: string } = {}): Promise<void> {
    cronParser.parseExpression(cron, options.tz ? { tz: options.tz } : {}); // throws on a bad expression
    await this.#run(() =>
      this.#s.upsertSchedule.run({ name, cron, data: JSON.stringify(data), tz: options.tz ?? null, now: this.#now() }),
    );
  }

  async unschedule(name: string): Promise<void> {
    await this.#run(() => this.#s.deleteSchedule.run({ name }));
  }

  /**
   * Sends each schedule's job once per cron tick. The `last_fired_at` guard makes this safe when
   * several processes tick at once; like pg-boss, a tick older than 60 s is not sent late.
   */
  async tickCron(): Promise<void> {
    const fired = await this.#run(() =>
      this.database.raw
        .transaction(() => {
          const now = this.#now();
          const names: string[] = [];
          for (const s of this.#s.schedules.all()) {
            const prev = cronParser
              .parseExpression(s.cron, { currentDate: new Date(now), ...(s.tz ? { tz: s.tz } : {}) })
              .prev()
              .getTime();
            if (now - prev >= 60_000 || (s.last_fired_at !== null && s.last_fired_at >= prev)) continue;
            if (this.#s.markFired.run({ name: s.name, fired: prev }).changes === 0) continue;
            this.#s.insert.get(
              this.#insertParams(s.name, JSON.parse(s.data) as object, { singletonKey: `cron:${prev}` }),
            );
            names.push(s.name);
          }
          return names;
        })
        .immediate(),
    );
    for (const name of fired) this.#wake(name);
  }

  async getJob<T = unknown>(name: string, id: string): Promise<JobInfo<T> | undefined> {
    const row = await this.#run(() => this.#s.get.get({ id: Number(id) }));
    return row && row.name === name ? (toInfo(row) as JobInfo<T>) : undefined;
  }

  async listDead(options: { name?: string; limit?: number } = {}): Promise<JobInfo[]> {
    const rows = await this.#run(() =>
      this.#s.listDead.all({ name: options.name ?? null, limit: options.limit ?? 100 }),
    );
    return rows.map(toInfo);
  }

  async retryDead(name: string, id: string): Promise<boolean> {
    const changed = await this.#run(() => this.#s.retryDead.run({ id: Number(id), name, now: this.#now() }).changes);
    if (changed > 0) this.#wake(name);
    return changed > 0;
  }

  async counts(name?: string) {
    const rows = await this.#run(() => this.#s.counts.all({ name: name ?? null }));
    const counts = emptyCounts();
    for (const r of rows) counts[r.state] = r.n;
    return counts;
  }

  async backlog(name?: string): Promise<QueueBacklog> {
    const row = await this.#run(() => this.#s.backlog.get({ name: name ?? null, now: this.#now() }))!;
    return {
      waiting: row?.waiting ?? 0,
      ready: row?.ready ?? 0,
      oldestReadyAt: row?.oldest == null ? null : new Date(row.oldest),
    };
  }

  async ping(): Promise<void> {
    await this.#run(() => this.database.raw.prepare('SELECT 1 FROM jobs LIMIT 1').get());
  }
}

function toJob(row: JobRow): Job {
  return {
    id: String(row.id),
    name: row.name,
    data: JSON.parse(row.data) as unknown,
    retryCount: row.retry_count,
    retryLimit: row.retry_limit,
    expireInSeconds: row.expire_in_seconds,
  };
}

function toInfo(row: JobRow): JobInfo {
  return {
    ...toJob(row),
    state: row.state,
    singletonKey: row.singleton_key === '' ? null : row.singleton_key,
    startAfter: new Date(row.start_after),
    createdAt: new Date(row.created_at),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at),
    output: row.output === null ? null : (JSON.parse(row.output) as unknown),
  };
}
