import type pg from 'pg';
import { quoteIdent } from '../store/pg/database.js';
import { DEFAULT_RETRY, type JobInfo, type JobState, type RetryOptions } from './types.js';

/**
 * Every statement wms-sync runs on pg-boss's own tables, in one place: pg-boss 10 offers no API for
 * them (no lease renewal, no listing by state, no count by state without its monitor). What this
 * file relies on — the columns and types below, the job states, and the output pg-boss writes when
 * its maintenance fails a job by timeout — is checked against the installed pg-boss by
 * test/queue/pgboss-tables.pg.test.ts, so an upgrade that changes any of it fails there first.
 */

/** The columns of pg-boss's `job` table read or written here, with their Postgres types. */
export const BOSS_JOB_COLUMNS = {
  id: 'uuid',
  name: 'text',
  data: 'jsonb',
  state: 'job_state',
  retry_count: 'integer',
  retry_limit: 'integer',
  singleton_key: 'text',
  policy: 'text',
  start_after: 'timestamp with time zone',
  started_on: 'timestamp with time zone',
  expire_in: 'interval',
  created_on: 'timestamp with time zone',
  completed_on: 'timestamp with time zone',
  output: 'jsonb',
} as const;

/** pg-boss's `job_state` enum, in its order (pg-boss compares states with `<`). */
export const BOSS_JOB_STATES = [
  'created',
  'retry',
  'active',
  'completed',
  'cancelled',
  'failed',
] as const satisfies readonly JobState[];

/** The output pg-boss 10 gives a job its maintenance failed because it ran out its `expire_in` (plans.js, failJobsByTimeout). */
export const BOSS_TIMEOUT_MESSAGE = 'job failed by timeout in active state';

/** Our index on pg-boss's job table: the running jobs, so the lease sweep reads only them. */
export const LEASE_INDEX = 'job_active_lease';

/**
 * Our index on pg-boss's job table in the order its fetch takes jobs (`ORDER BY priority desc,
 * created_on, id LIMIT n`, plans.js fetchNextJob): the fetch walks it and stops after n jobs.
 * pg-boss's own fetch index (job_i5) is on `(name, start_after)`, so every fetch read and sorted the
 * whole waiting backlog: 24 ms a fetch with 12,000 pushes waiting (pg_stat_statements, bench:push
 * run d), the most expensive statement of the run.
 */
export const FETCH_ORDER_INDEX = 'job_fetch_order';

/** A queue partition is analyzed again once this many rows changed, and this share of the rows its statistics count. */
const STALE_MIN_ROWS = 1000;
const STALE_SHARE = 1;

/** Our indexes on pg-boss's job table, by name: the lease sweep's and the fetch's. */
const OUR_INDEXES: Record<string, string> = {
  [LEASE_INDEX]: `(name, started_on) WHERE state = 'active'`,
  [FETCH_ORDER_INDEX]: `(name, priority DESC, created_on, id) WHERE state < 'active'`,
};

/**
 * pg-boss's own defaults as PgBossQueue configures them (its constructor passes DEFAULT_RETRY and
 * no retention): what `send` falls back to for an option neither the job nor its queue sets.
 */
export const BOSS_SEND_DEFAULTS = {
  expireIn: DEFAULT_RETRY.expireInSeconds,
  keepUntil: null,
  retryLimit: DEFAULT_RETRY.retryLimit,
  retryDelay: DEFAULT_RETRY.retryDelay,
  retryBackoff: DEFAULT_RETRY.retryBackoff,
} as const;

/**
 * pg-boss 10.4.2's `insertJob` (plans.js, what `send` runs) for a set of rows, to be placed in the
 * WITH clause of a statement of ours: one job per row of `source` (columns `data jsonb`,
 * `start_after timestamptz`), the columns and the queue-option join exactly as pg-boss computes
 * them, `options` (a jsonb placeholder, see `bossJobOptions`) standing for send's options. Two
 * deliberate differences, both so that a caller's rows are never written without their jobs: no
 * ON CONFLICT DO NOTHING (a conflict fails the statement instead of dropping the job; only
 * singleton and stately queues can conflict, and these options have no singleton key), and the
 * queue is LEFT joined (a queue that does not exist has no partition of the job table, so the
 * insert fails instead of inserting nothing). Checked against `send` by pgboss-tables.pg.test.ts.
 */
export function bossJobInsertSql(schema: string, source: string, options: string): string {
  const s = quoteIdent(schema);
  return `INSERT INTO ${s}.job (id, name, data, priority, start_after, singleton_key, singleton_on, dead_letter, expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
    SELECT gen_random_uuid(), o.name, j.data, 0, j.start_after, NULL, NULL, q.dead_letter,
      CASE
        WHEN o.expire_in IS NOT NULL THEN o.expire_in * interval '1s'
        WHEN q.expire_seconds IS NOT NULL THEN q.expire_seconds * interval '1s'
        WHEN o.expire_in_default IS NOT NULL THEN o.expire_in_default * interval '1s'
        ELSE interval '15 minutes'
      END,
      j.start_after + CAST(COALESCE((q.retention_minutes * 60)::text, o.keep_until_default, '14 days') AS interval),
      COALESCE(o.retry_limit, q.retry_limit, o.retry_limit_default, 2),
      CASE
        WHEN COALESCE(o.retry_backoff, q.retry_backoff, o.retry_backoff_default, false)
        THEN GREATEST(COALESCE(o.retry_delay, q.retry_delay, o.retry_delay_default), 1)
        ELSE COALESCE(o.retry_delay, q.retry_delay, o.retry_delay_default, 0)
      END,
      COALESCE(o.retry_backoff, q.retry_backoff, o.retry_backoff_default, false),
      q.policy
    FROM ${source} j
      CROSS JOIN jsonb_to_record(${options}::jsonb) AS o(name text, expire_in numeric, expire_in_default numeric, keep_until_default text,
        retry_limit int, retry_limit_default int, retry_delay int, retry_delay_default int, retry_backoff bool, retry_backoff_default bool)
      LEFT JOIN ${s}.queue q ON q.name = o.name
    RETURNING id`;
}

/** The value of `bossJobInsertSql`'s `options` placeholder: the queue and send's options, as pg-boss's Attorney reads them. */
export function bossJobOptions(name: string, options: RetryOptions): string {
  return JSON.stringify({
    name,
    expire_in: options.expireInSeconds ?? null,
    expire_in_default: BOSS_SEND_DEFAULTS.expireIn,
    keep_until_default: BOSS_SEND_DEFAULTS.keepUntil,
    retry_limit: options.retryLimit ?? null,
    retry_limit_default: BOSS_SEND_DEFAULTS.retryLimit,
    retry_delay: options.retryDelay ?? null,
    retry_delay_default: BOSS_SEND_DEFAULTS.retryDelay,
    retry_backoff: options.retryBackoff ?? null,
    retry_backoff_default: BOSS_SEND_DEFAULTS.retryBackoff,
  });
}

interface BossRow {
  id: string;
  name: string;
  data: unknown;
  state: JobState;
  retry_count: number;
  retry_limit: number;
  expire_in_seconds: string;
  singleton_key: string | null;
  start_after: Date;
  created_on: Date;
  completed_on: Date | null;
  output: unknown;
}

export class BossTables {
  readonly #job: string;

  constructor(
    private readonly pool: pg.Pool,
    readonly schema: string,
  ) {
    this.#job = `${quoteIdent(schema)}.job`;
  }

  /**
   * Creates our indexes once (pg-boss creates the table in `start()`). On the partitioned table, so
   * every queue's partition has them, those created later included. Under an advisory lock:
   * processes starting together would otherwise race to create them.
   */
  async ensureIndexes(): Promise<void> {
    const names = Object.keys(OUR_INDEXES);
    const { rows } = await this.pool.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2)`,
      [this.schema, names],
    );
    const missing = names.filter((n) => !rows.some((r) => r.indexname === n));
    if (missing.length === 0) return;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${this.schema}.${LEASE_INDEX}`]);
      for (const name of missing)
        await client.query(`CREATE INDEX IF NOT EXISTS ${quoteIdent(name)} ON ${this.#job} ${OUR_INDEXES[name]}`);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * ANALYZEs the queue partitions of the job table that changed much since their last statistics:
   * more than 1,000 rows, and more than the statistics knew it held (none before its first).
   * Postgres's autovacuum does the same but looks once a minute, and until then a partition that
   * was empty when last seen is planned as if it still were: pg-boss's fetch then reads and sorts the whole backlog through its own index
   * instead of walking the fetch-order one (20 to 45 ms a fetch with 12,000 waiting, against 1.5
   * ms). One process at a time (an advisory lock taken without waiting); returns what it analyzed.
   */
  async analyzeStale(): Promise<string[]> {
    const { rows } = await this.pool.query<{ rel: string }>(
      `SELECT format('%I.%I', s.schemaname, s.relname) AS rel
         FROM pg_stat_user_tables s
         JOIN pg_class c ON c.oid = s.relid
         JOIN pg_inherits i ON i.inhrelid = s.relid
         JOIN pg_class p ON p.oid = i.inhparent
        WHERE s.schemaname = $1 AND p.relname = 'job'
          AND s.n_mod_since_analyze > GREATEST(${STALE_MIN_ROWS}, ${STALE_SHARE} * GREATEST(c.reltuples, 0))`,
      [this.schema],
    );
    if (rows.length === 0) return [];
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ got: boolean }>(
        `SELECT pg_try_advisory_xact_lock(hashtext($1)) AS got`,
        [`${this.schema}.analyze`],
      );
      if (!lock[0]?.got) {
        await client.query('ROLLBACK');
        return [];
      }
      for (const { rel } of rows) await client.query(`ANALYZE ${rel}`);
      await client.query('COMMIT');
      return rows.map((r) => r.rel);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * The worker's heartbeat. pg-boss 10 has none, and its expiry reads `started_on + expire_in`, so
   * the sign of life is written into `started_on` (which then means "last seen running"); nothing
   * else of pg-boss reads it beyond "was it ever started".
   */
  async renew(name: string, ids: string[]): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.#job} SET started_on = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
      [name, ids],
    );
  }

  /**
   * Puts a running job back in line without spending an attempt (the store failed, not the job):
   * pg-boss's fetch counts an attempt only for a job started before (`started_on` set), so that is
   * cleared. False when a stately queue already holds a retry for the key (the caller fails it).
   */
  async release(name: string, id: string, delayMs: number, output: unknown): Promise<boolean> {
    try {
      await this.pool.query(
        `UPDATE ${this.#job} SET state = 'retry', started_on = NULL, output = $4::jsonb,
           start_after = now() + make_interval(secs => $3::float8 / 1000)
         WHERE name = $1 AND id = $2::uuid AND state = 'active'`,
        [name, id, delayMs, JSON.stringify(output)],
      );
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return false;
      throw err;
    }
  }

  /**
   * Puts back in line the running jobs of `names` not seen alive for `leaseSeconds` (or their
   * `expire_in`, when shorter): at once, since their worker died rather than failed them; dead when
   * no retry is left, or when a stately queue already holds a retry for the same key (pg-boss's own
   * rule in its failJobs). Returns the jobs released, each once.
   */
  async releaseExpired(
    names: string[],
    leaseSeconds: number,
    message: string,
  ): Promise<{ id: string; name: string; dead: boolean }[]> {
    const job = this.#job;
    const { rows } = await this.pool.query<{ id: string; name: string; dead: boolean }>(
      `WITH expired AS (
         SELECT id, name FROM ${job}
         WHERE name = ANY($1::text[]) AND state = 'active'
           AND started_on + LEAST(expire_in, make_interval(secs => $2)) < now()
         FOR UPDATE SKIP LOCKED
       ), retried AS (
         UPDATE ${job} j SET state = 'retry', start_after = now(), output = $3::jsonb
         FROM expired e
         WHERE j.name = e.name AND j.id = e.id AND j.retry_count < j.retry_limit
           AND NOT (j.policy = 'stately' AND EXISTS (
             SELECT 1 FROM ${job} w WHERE w.name = j.name AND w.state = 'retry' AND w.policy = 'stately'
               AND COALESCE(w.singleton_key, '') = COALESCE(j.singleton_key, '')))
         RETURNING j.id, j.name
       ), dead AS (
         UPDATE ${job} j SET state = 'failed', completed_on = now(), output = $3::jsonb
         FROM expired e
         WHERE j.name = e.name AND j.id = e.id AND NOT EXISTS (SELECT 1 FROM retried r WHERE r.id = j.id)
         RETURNING j.id, j.name
       )
       SELECT id, name, false AS dead FROM retried UNION ALL SELECT id, name, true AS dead FROM dead`,
      [names, leaseSeconds, JSON.stringify({ message })],
    );
    return rows;
  }

  /**
   * The jobs of `names` that pg-boss's own maintenance failed by timeout with no retry left, not
   * reported yet: marks each in its output (`deadReported`) so it is reported once, by one process.
   */
  async takeUnreportedTimeouts(names: string[]): Promise<{ id: string; name: string }[]> {
    const { rows } = await this.pool.query<{ id: string; name: string }>(
      `UPDATE ${this.#job} SET output = jsonb_set(output, '{deadReported}', 'true'::jsonb)
       WHERE name = ANY($1::text[]) AND state = 'failed' AND jsonb_typeof(output) = 'object'
         AND output->'value'->>'message' = $2 AND NOT output ? 'deadReported'
       RETURNING id, name`,
      [names, BOSS_TIMEOUT_MESSAGE],
    );
    return rows;
  }

  async listDead(name: string | undefined, limit: number): Promise<JobInfo[]> {
    const { rows } = await this.pool.query<BossRow>(
      `SELECT id, name, data, state, retry_count, retry_limit, EXTRACT(epoch FROM expire_in) AS expire_in_seconds,
              singleton_key, start_after, created_on, completed_on, output
       FROM ${this.#job} WHERE state = 'failed' AND ($1::text IS NULL OR name = $1)
       ORDER BY completed_on DESC LIMIT $2`,
      [name ?? null, limit],
    );
    return rows.map(rowToInfo);
  }

  async countByState(name: string | undefined): Promise<{ state: JobState; n: number }[]> {
    const { rows } = await this.pool.query<{ state: JobState; n: string }>(
      `SELECT state, count(*) AS n FROM ${this.#job} WHERE ($1::text IS NULL OR name = $1) GROUP BY state`,
      [name ?? null],
    );
    return rows.map((r) => ({ state: r.state, n: Number(r.n) }));
  }

  /** Jobs waiting (created or retry), those ready to run, and the start time of the oldest ready one. */
  async backlog(name: string | undefined): Promise<{ waiting: number; ready: number; oldestReadyAt: Date | null }> {
    const { rows } = await this.pool.query<{ waiting: string; ready: string; oldest: Date | null }>(
      `SELECT count(*) AS waiting, count(*) FILTER (WHERE start_after <= now()) AS ready,
         min(start_after) FILTER (WHERE start_after <= now()) AS oldest
       FROM ${this.#job} WHERE state IN ('created', 'retry') AND ($1::text IS NULL OR name = $1)`,
      [name ?? null],
    );
    const row = rows[0];
    return { waiting: Number(row?.waiting ?? 0), ready: Number(row?.ready ?? 0), oldestReadyAt: row?.oldest ?? null };
  }

  async ping(): Promise<void> {
    await this.pool.query(`SELECT 1 FROM ${quoteIdent(this.schema)}.version`);
  }
}

function rowToInfo(r: BossRow): JobInfo {
  return {
    id: r.id,
    name: r.name,
    data: r.data,
    state: r.state,
    retryCount: r.retry_count,
    retryLimit: r.retry_limit,
    expireInSeconds: seconds(r.expire_in_seconds),
    singletonKey: r.singleton_key,
    startAfter: r.start_after,
    createdAt: r.created_on,
    completedAt: r.completed_on,
    output: r.output,
  };
}

/** A job's expireInSeconds as pg-boss gives it (numeric, so a string), never NaN: the heartbeat compares with it. */
export function seconds(value: number | string | undefined): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_RETRY.expireInSeconds;
}
