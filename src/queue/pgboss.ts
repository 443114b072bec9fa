import { EventEmitter } from 'node:events';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { StoreTx } from '../store/types.js';
import { type JobNotifier, openJobNotifier } from './pg-notify.js';
import { BossTables, bossJobInsertSql, bossJobOptions, seconds } from './pgboss-tables.js';
import {
  DEFAULT_LEASE_SECONDS,
  DEFAULT_RETRY,
  emptyCounts,
  heartbeatMs,
  type Job,
  type JobHandler,
  type JobInfo,
  type JobState,
  type JobsInStatement,
  LEASE_EXPIRED,
  type Queue,
  type QueueBacklog,
  type QueueEvents,
  type QueueOptions,
  type RetryOptions,
  type SendOptions,
  serializeError,
  toError,
  type WorkOptions,
} from './types.js';
import { STORE_RETRY_DELAY_MS, WorkerLoop } from './worker-loop.js';

export interface PgBossQueueOptions {
  pool: pg.Pool;
  /** Schema of pg-boss's own tables. */
  schema: string;
  maintenanceIntervalSeconds?: number;
  cronWorkerIntervalSeconds?: number;
  cronMonitorIntervalSeconds?: number;
  /** A running job's lease (see `DEFAULT_LEASE_SECONDS`); the same in every process. */
  leaseSeconds?: number;
  /** The first delay before a job whose handler failed because the store failed runs again. */
  storeRetryDelayMs?: number;
  /** Wakes other processes' loops through LISTEN/NOTIFY (`pg-notify.ts`); on unless false. */
  notify?: boolean;
}

type BossJob = {
  id: string;
  name: string;
  data: unknown;
  retryCount?: number;
  retryLimit?: number;
  expireInSeconds?: number | string;
};

/**
 * The Postgres adapter: pg-boss 10 owns the tables, SKIP LOCKED claims, retries, cron and
 * archiving; our shared `WorkerLoop` drives `fetch`/`complete`/`fail` so that a full batch is
 * followed by another fetch at once and a local send wakes an idle worker. Leases are ours
 * (pg-boss 10 has no heartbeat): workers renew their jobs' leases, and each process working a queue
 * puts back in line, every heartbeat, that queue's jobs whose worker stopped renewing them
 * (`pgboss-tables.ts` holds every statement on pg-boss's tables).
 * pg-boss runs its SQL through the store's pool, and through the transaction's client for `{ tx }`.
 */
export class PgBossQueue extends EventEmitter<QueueEvents> implements Queue {
  readonly kind = 'pgboss' as const;
  readonly boss: PgBoss;
  readonly #tables: BossTables;
  readonly #created = new Map<string, Promise<void>>();
  readonly #loops = new Map<string, WorkerLoop[]>();
  readonly #maintenanceMs: number;
  readonly #leaseSeconds: number;
  readonly #storeRetryDelayMs: number;
  #deadSweep: NodeJS.Timeout | undefined;
  #leaseSweep: NodeJS.Timeout | undefined;
  #statsSweep: NodeJS.Timeout | undefined;
  #sweeping = false;
  readonly #pool: pg.Pool;
  readonly #notify: boolean;
  #notifier: JobNotifier | undefined;

  constructor(options: PgBossQueueOptions) {
    super();
    this.#pool = options.pool;
    this.#notify = options.notify ?? true;
    this.#tables = new BossTables(options.pool, options.schema);
    this.#maintenanceMs = (options.maintenanceIntervalSeconds ?? 30) * 1000;
    this.#leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    this.#storeRetryDelayMs = options.storeRetryDelayMs ?? STORE_RETRY_DELAY_MS;
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => options.pool.query(text, values) },
      schema: options.schema,
      ...DEFAULT_RETRY,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
      cronWorkerIntervalSeconds: options.cronWorkerIntervalSeconds ?? 5,
      cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds ?? 10,
      archiveCompletedAfterSeconds: 60 * 60,
      archiveFailedAfterSeconds: 30 * 24 * 60 * 60,
    });
    this.boss.on('error', (err) => this.emit('error', err));
  }

  async start(): Promise<void> {
    if (this.#notify && !this.#notifier) {
      this.#notifier = openJobNotifier({
        pool: this.#pool,
        schema: this.#tables.schema,
        onError: (err) => this.#report(Promise.reject(err)),
      });
    }
    await this.#startBoss();
    await this.#tables.ensureIndexes();
  }

  /**
   * pg-boss installs its schema under a transaction-scoped advisory lock, yet a session that waited
   * on it still misses the schema just committed (an advisory lock does not make Postgres read the
   * catalog changes committed meanwhile) and fails on a duplicate `pg_namespace` row, as a `serve`
   * and a `worker` started together did. So processes take turns on a session lock held across
   * `boss.start()`: whoever waited starts after the install committed and finds pg-boss installed.
   */
  async #startBoss(): Promise<void> {
    const client = await this.#pool.connect();
    const key = `wms-sync.pgboss-install.${this.#tables.schema}`;
    let broken: Error | undefined;
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      try {
        await this.boss.start();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch((err: Error) => {
          broken = err;
        });
      }
    } finally {
      // A client whose unlock failed may still hold the lock: destroy it rather than pool it.
      client.release(broken);
    }
  }

  async stop(options: { graceMs?: number } = {}): Promise<boolean> {
    clearInterval(this.#deadSweep);
    clearInterval(this.#leaseSweep);
    clearInterval(this.#statsSweep);
    this.#deadSweep = undefined;
    this.#leaseSweep = undefined;
    this.#statsSweep = undefined;
    const loops = [...this.#loops.values()].flat();
    this.#loops.clear();
    const ended = await Promise.all(loops.map((l) => l.stop(options.graceMs ?? 10_000)));
    await this.boss.stop({ graceful: false, close: false, wait: true });
    await this.#notifier?.close();
    this.#notifier = undefined;
    return ended.every(Boolean);
  }

  createQueue(name: string, options: QueueOptions = {}): Promise<void> {
    let created = this.#created.get(name);
    if (!created) {
      created = this.boss.createQueue(name, {
        name,
        policy: options.policy ?? 'standard',
        ...(options.retryLimit !== undefined ? { retryLimit: options.retryLimit } : {}),
        ...(options.retryDelay !== undefined ? { retryDelay: options.retryDelay } : {}),
        ...(options.retryBackoff !== undefined ? { retryBackoff: options.retryBackoff } : {}),
        ...(options.expireInSeconds !== undefined ? { expireInSeconds: options.expireInSeconds } : {}),
      });
      created.catch(() => this.#created.delete(name));
      this.#created.set(name, created);
    }
    return created;
  }

  #db(tx: StoreTx | undefined): PgBoss.Db | undefined {
    if (!tx) return undefined;
    if (tx.handle.dialect !== 'postgres') throw new Error('a SQLite transaction was passed to the Postgres queue');
    const { client } = tx.handle;
    return { executeSql: (text, values) => client.query(text, values) };
  }

  #afterSend(tx: StoreTx | undefined, name: string): void {
    if (tx) tx.afterCommit(() => this.#wake(name));
    else this.#wake(name);
  }

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    await this.createQueue(name);
    const { tx, ...rest } = options;
    const db = this.#db(tx);
    const id = await this.boss.send(name, data, { ...sendOptions(rest), ...(db ? { db } : {}) });
    this.#afterSend(tx, name);
    return id;
  }

  async sendMany<T extends object>(
    name: string,
    items: { data: T; options?: Omit<SendOptions, 'tx'> }[],
    options: { tx?: StoreTx } = {},
  ): Promise<void> {
    if (items.length === 0) return;
    await this.createQueue(name);
    const db = this.#db(options.tx);
    await this.boss.insert(
      items.map((i) => {
        const { startAfter, ...rest } = sendOptions(i.options ?? {});
        // insert() takes dates only; send() also takes seconds.
        const at = typeof startAfter === 'number' ? new Date(Date.now() + startAfter * 1000) : startAfter;
        return { name, data: i.data, ...rest, ...(at !== undefined ? { startAfter: at } : {}) };
      }),
      db ? { db } : {},
    );
    this.#afterSend(options.tx, name);
  }

  async jobsInStatement(name: string, options: RetryOptions): Promise<JobsInStatement> {
    await this.createQueue(name);
    const schema = this.#tables.schema;
    return {
      insert: (source, param) => bossJobInsertSql(schema, source, param),
      value: bossJobOptions(name, options),
      written: () => this.#wake(name),
    };
  }

  #wake(name: string): void {
    this.#wakeLocal(name);
    this.#notifier?.notify(name);
  }

  /** `*` wakes every loop (the notification connection is back: what was sent meanwhile is waiting). */
  #wakeLocal(name: string): void {
    const loops = name === '*' ? [...this.#loops.values()].flat() : (this.#loops.get(name) ?? []);
    for (const loop of loops) loop.wake();
  }

  async work<T>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    await this.createQueue(name);
    const driver = {
      fetch: async (n: string, batchSize: number): Promise<Job[]> => {
        const jobs = (await this.boss.fetch(n, { batchSize, includeMetadata: true })) as BossJob[];
        return jobs.map((j) => ({
          id: j.id,
          name: j.name,
          data: j.data,
          retryCount: j.retryCount ?? 0,
          retryLimit: j.retryLimit ?? 0,
          expireInSeconds: seconds(j.expireInSeconds),
        }));
      },
      complete: async (n: string, ids: string[]) => {
        await this.boss.complete(n, ids);
      },
      fail: async (n: string, job: Job, error: Error) => {
        await this.boss.fail(n, job.id, serializeError(error));
        return job.retryCount >= job.retryLimit;
      },
      release: async (n: string, job: Job, error: Error, delayMs: number) => {
        if (await this.#tables.release(n, job.id, delayMs, serializeError(error))) return false;
        await this.boss.fail(n, job.id, serializeError(error));
        return job.retryCount >= job.retryLimit;
      },
      renew: (n: string, ids: string[]) => this.#tables.renew(n, ids),
    };
    const loop = new WorkerLoop(
      name,
      options,
      handler as JobHandler<unknown>,
      driver,
      this,
      heartbeatMs(this.#leaseSeconds),
      this.#storeRetryDelayMs,
    );
    this.#loops.set(name, [...(this.#loops.get(name) ?? []), loop]);
    loop.start();
    this.#notifier?.listen((queue) => this.#wakeLocal(queue));
    this.#leaseSweep ??= this.#every(heartbeatMs(this.#leaseSeconds), () => this.releaseExpired());
    this.#deadSweep ??= this.#every(this.#maintenanceMs, () => this.reportExpiredDead());
    // A burst of sends (a catalogue loaded at once) gets the job table's statistics soon, not at autovacuum's next look.
    this.#statsSweep ??= this.#every(heartbeatMs(this.#leaseSeconds), () =>
      this.#tables.analyzeStale().then(() => undefined),
    );
    // A process starting to work a queue (a restart after a crash) looks for abandoned jobs at once.
    this.#report(this.releaseExpired());
  }

  #every(ms: number, fn: () => Promise<void>): NodeJS.Timeout {
    return setInterval(() => this.#report(fn()), ms).unref();
  }

  #report(done: Promise<void>): void {
    done.catch((err: unknown) => {
      // The database may be down: report it like the worker loops do, never as an unhandled 'error'.
      if (this.listenerCount('error') > 0) this.emit('error', toError(err));
      else console.error('[queue] lease maintenance failed:', err);
    });
  }

  /**
   * Puts back in line the jobs of the queues this process works whose lease ran out: their worker
   * died or froze (no heartbeat for `leaseSeconds`), or ran past `expireInSeconds`. A job released
   * with no retry left is dead and reported here.
   */
  async releaseExpired(): Promise<void> {
    const names = [...this.#loops.keys()];
    if (names.length === 0 || this.#sweeping) return;
    this.#sweeping = true;
    try {
      const released = await this.#tables.releaseExpired(names, this.#leaseSeconds, LEASE_EXPIRED);
      for (const job of released) {
        this.emit('failed', { name: job.name, id: job.id, error: new Error(LEASE_EXPIRED), dead: job.dead });
        if (!job.dead) this.#wake(job.name);
      }
    } finally {
      this.#sweeping = false;
    }
  }

  /**
   * pg-boss's own maintenance also fails jobs that ran out their `expire_in` (when no process
   * working their queue released them first), without a word to anyone: a job whose worker died on
   * its last attempt would end dead with no 'failed' event, and what listens for dead jobs (an
   * inbound job's events are marked failed, a run is ended) would never learn it. This reports each
   * such job once: the first process working its queue to see it marks it and emits `failed`.
   */
  async reportExpiredDead(): Promise<void> {
    const names = [...this.#loops.keys()];
    if (names.length === 0) return;
    for (const row of await this.#tables.takeUnreportedTimeouts(names)) {
      this.emit('failed', { name: row.name, id: row.id, error: new Error(LEASE_EXPIRED), dead: true });
    }
  }

  async schedule(name: string, cron: string, data: object = {}, options: { tz?: string } = {}): Promise<void> {
    await this.createQueue(name);
    await this.boss.schedule(name, cron, data, options.tz ? { tz: options.tz } : {});
  }

  async unschedule(name: string): Promise<void> {
    await this.boss.unschedule(name);
  }

  async getJob<T = unknown>(name: string, id: string): Promise<JobInfo<T> | undefined> {
    const job = await this.boss.getJobById(name, id, { includeArchive: true });
    return job ? (toInfo(job as unknown as BossJobWithMetadata) as JobInfo<T>) : undefined;
  }

  async listDead(options: { name?: string; limit?: number } = {}): Promise<JobInfo[]> {
    return this.#tables.listDead(options.name, options.limit ?? 100);
  }

  async retryDead(name: string, id: string): Promise<boolean> {
    const job = await this.boss.getJobById(name, id);
    if (job?.state !== 'failed') return false;
    await this.boss.retry(name, id);
    this.#wake(name);
    return true;
  }

  async counts(name?: string): Promise<Record<JobState, number>> {
    const counts = emptyCounts();
    for (const r of await this.#tables.countByState(name)) counts[r.state] = r.n;
    return counts;
  }

  backlog(name?: string): Promise<QueueBacklog> {
    return this.#tables.backlog(name);
  }

  async ping(): Promise<void> {
    await this.#tables.ping();
  }
}

function sendOptions(o: Omit<SendOptions, 'tx'>): PgBoss.SendOptions {
  return {
    ...(o.singletonKey !== undefined ? { singletonKey: o.singletonKey } : {}),
    ...(o.startAfter !== undefined ? { startAfter: o.startAfter } : {}),
    ...(o.retryLimit !== undefined ? { retryLimit: o.retryLimit } : {}),
    ...(o.retryDelay !== undefined ? { retryDelay: o.retryDelay } : {}),
    ...(o.retryBackoff !== undefined ? { retryBackoff: o.retryBackoff } : {}),
    ...(o.expireInSeconds !== undefined ? { expireInSeconds: o.expireInSeconds } : {}),
  };
}

type BossJobWithMetadata = PgBoss.JobWithMetadata<unknown>;

function toInfo(job: BossJobWithMetadata): JobInfo {
  return {
    id: job.id,
    name: job.name,
    data: job.data,
    state: job.state,
    retryCount: job.retryCount,
    retryLimit: job.retryLimit,
    expireInSeconds: seconds((job as { expireInSeconds?: number | string }).expireInSeconds),
    singletonKey: job.singletonKey ?? null,
    startAfter: new Date(job.startAfter),
    createdAt: new Date(job.createdOn),
    completedAt: job.completedOn ? new Date(job.completedOn) : null,
    output: job.output ?? null,
  };
}
