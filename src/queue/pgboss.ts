import { EventEmitter } from 'node:events';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { quoteIdent } from '../store/pg/database.js';
import type { StoreTx } from '../store/types.js';
import {
  DEFAULT_RETRY,
  emptyCounts,
  serializeError,
  toError,
  type Job,
  type JobHandler,
  type JobInfo,
  type JobState,
  type Queue,
  type QueueBacklog,
  type QueueEvents,
  type QueueOptions,
  type SendOptions,
  type WorkOptions,
} from './types.js';
import { WorkerLoop } from './worker-loop.js';

export interface PgBossQueueOptions {
  pool: pg.Pool;
  /** Schema of pg-boss's own tables. */
  schema: string;
  maintenanceIntervalSeconds?: number;
  cronWorkerIntervalSeconds?: number;
  cronMonitorIntervalSeconds?: number;
}

type BossJob = { id: string; name: string; data: unknown; retryCount?: number; retryLimit?: number };

/** The output pg-boss 10 gives a job it failed because its lease ran out (plans.js, failJobsByTimeout). */
const BOSS_TIMEOUT_MESSAGE = 'job failed by timeout in active state';

/**
 * The Postgres adapter: pg-boss 10 owns the tables, SKIP LOCKED claims, retries, expiry (leases),
 * cron and archiving; our shared `WorkerLoop` drives `fetch`/`complete`/`fail` so that a full
 * batch is followed by another fetch at once and a local send wakes an idle worker.
 * pg-boss runs its SQL through the store's pool, and through the transaction's client for `{ tx }`.
 */
export class PgBossQueue extends EventEmitter<QueueEvents> implements Queue {
  readonly kind = 'pgboss' as const;
  readonly boss: PgBoss;
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #created = new Map<string, Promise<void>>();
  readonly #loops = new Map<string, WorkerLoop[]>();
  readonly #maintenanceMs: number;
  #deadSweep: NodeJS.Timeout | undefined;

  constructor(options: PgBossQueueOptions) {
    super();
    this.#pool = options.pool;
    this.#schema = options.schema;
    this.#maintenanceMs = (options.maintenanceIntervalSeconds ?? 30) * 1000;
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
    await this.boss.start();
  }

  async stop(options: { graceMs?: number } = {}): Promise<void> {
    clearInterval(this.#deadSweep);
    this.#deadSweep = undefined;
    const loops = [...this.#loops.values()].flat();
    this.#loops.clear();
    await Promise.all(loops.map((l) => l.stop(options.graceMs ?? 10_000)));
    await this.boss.stop({ graceful: false, close: false, wait: true });
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

  async sendMany<T extends object>(name: string, items: { data: T; options?: Omit<SendOptions, 'tx'> }[], options: { tx?: StoreTx } = {}): Promise<void> {
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

  #wake(name: string): void {
    for (const loop of this.#loops.get(name) ?? []) loop.wake();
  }

  async work<T>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    await this.createQueue(name);
    const driver = {
      fetch: async (n: string, batchSize: number): Promise<Job[]> => {
        const jobs = (await this.boss.fetch(n, { batchSize, includeMetadata: true })) as BossJob[];
        return jobs.map((j) => ({ id: j.id, name: j.name, data: j.data, retryCount: j.retryCount ?? 0, retryLimit: j.retryLimit ?? 0 }));
      },
      complete: async (n: string, ids: string[]) => {
        await this.boss.complete(n, ids);
      },
      fail: async (n: string, job: Job, error: Error) => {
        await this.boss.fail(n, job.id, serializeError(error));
        return job.retryCount >= job.retryLimit;
      },
    };
    const loop = new WorkerLoop(name, options, handler as JobHandler<unknown>, driver, this);
    this.#loops.set(name, [...(this.#loops.get(name) ?? []), loop]);
    loop.start();
    this.#deadSweep ??= setInterval(() => {
      this.reportExpiredDead().catch((err: unknown) => {
        // The database may be down: report it like the worker loops do, never as an unhandled 'error'.
        if (this.listenerCount('error') > 0) this.emit('error', toError(err));
        else console.error('[queue] reporting expired jobs failed:', err);
      });
    }, this.#maintenanceMs).unref();
  }

  /**
   * pg-boss fails a job whose lease ran out in its own maintenance, without a word to anyone: a job
   * whose worker died on its last attempt would end dead with no 'failed' event, and what listens
   * for dead jobs (an inbound job's events are marked failed, a run is ended) would never learn it.
   * This reports each such job once, as the embedded queue does: the first process working its
   * queue to see it marks it in the job's output and emits `failed` with `dead: true`.
   */
  async reportExpiredDead(): Promise<void> {
    const names = [...this.#loops.keys()];
    if (names.length === 0) return;
    const { rows } = await this.#pool.query<{ id: string; name: string }>(
      `UPDATE ${quoteIdent(this.#schema)}.job SET output = jsonb_set(output, '{deadReported}', 'true'::jsonb)
       WHERE name = ANY($1::text[]) AND state = 'failed' AND jsonb_typeof(output) = 'object'
         AND output->'value'->>'message' = $2 AND NOT output ? 'deadReported'
       RETURNING id, name`,
      [names, BOSS_TIMEOUT_MESSAGE],
    );
    for (const row of rows) {
      this.emit('failed', { name: row.name, id: row.id, error: new Error('lease expired: the worker stopped before finishing'), dead: true });
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
    const { rows } = await this.#pool.query<BossRow>(
      `SELECT id, name, data, state, retry_count, retry_limit, singleton_key, start_after, created_on, completed_on, output
       FROM ${quoteIdent(this.#schema)}.job WHERE state = 'failed' AND ($1::text IS NULL OR name = $1)
       ORDER BY completed_on DESC LIMIT $2`,
      [options.name ?? null, options.limit ?? 100],
    );
    return rows.map(rowToInfo);
  }

  async retryDead(name: string, id: string): Promise<boolean> {
    const job = await this.boss.getJobById(name, id);
    if (!job || job.state !== 'failed') return false;
    await this.boss.retry(name, id);
    this.#wake(name);
    return true;
  }

  async counts(name?: string): Promise<Record<JobState, number>> {
    const { rows } = await this.#pool.query<{ state: JobState; n: string }>(
      `SELECT state, count(*) AS n FROM ${quoteIdent(this.#schema)}.job WHERE ($1::text IS NULL OR name = $1) GROUP BY state`,
      [name ?? null],
    );
    const counts = emptyCounts();
    for (const r of rows) counts[r.state] = Number(r.n);
    return counts;
  }

  async backlog(name?: string): Promise<QueueBacklog> {
    const { rows } = await this.#pool.query<{ waiting: string; ready: string; oldest: Date | null }>(
      `SELECT count(*) AS waiting, count(*) FILTER (WHERE start_after <= now()) AS ready,
         min(start_after) FILTER (WHERE start_after <= now()) AS oldest
       FROM ${quoteIdent(this.#schema)}.job WHERE state IN ('created', 'retry') AND ($1::text IS NULL OR name = $1)`,
      [name ?? null],
    );
    const row = rows[0];
    return { waiting: Number(row?.waiting ?? 0), ready: Number(row?.ready ?? 0), oldestReadyAt: row?.oldest ?? null };
  }

  async ping(): Promise<void> {
    await this.#pool.query(`SELECT 1 FROM ${quoteIdent(this.#schema)}.version`);
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
    singletonKey: job.singletonKey ?? null,
    startAfter: new Date(job.startAfter),
    createdAt: new Date(job.createdOn),
    completedAt: job.completedOn ? new Date(job.completedOn) : null,
    output: job.output ?? null,
  };
}

interface BossRow {
  id: string;
  name: string;
  data: unknown;
  state: JobState;
  retry_count: number;
  retry_limit: number;
  singleton_key: string | null;
  start_after: Date;
  created_on: Date;
  completed_on: Date | null;
  output: unknown;
}

function rowToInfo(r: BossRow): JobInfo {
  return {
    id: r.id,
    name: r.name,
    data: r.data,
    state: r.state,
    retryCount: r.retry_count,
    retryLimit: r.retry_limit,
    singletonKey: r.singleton_key,
    startAfter: r.start_after,
    createdAt: r.created_on,
    completedAt: r.completed_on,
    output: r.output,
  };
}
