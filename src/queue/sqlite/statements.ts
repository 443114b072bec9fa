import type Database from 'better-sqlite3';
import type { JobState } from '../types.js';

/** A row of `jobs` as SQLite returns it (snake_case, epoch ms). */
export interface JobRow {
  id: number;
  name: string;
  data: string;
  state: JobState;
  policy: 'standard' | 'stately';
  retry_limit: number;
  retry_count: number;
  retry_delay: number;
  retry_backoff: 0 | 1;
  expire_in_seconds: number;
  singleton_key: string;
  start_after: number;
  started_at: number | null;
  lease_until: number | null;
  output: string | null;
  created_at: number;
  completed_at: number | null;
}

export interface InsertParams {
  name: string;
  data: string;
  policy: 'standard' | 'stately';
  retry_limit: number;
  retry_delay: number;
  retry_backoff: 0 | 1;
  expire_in_seconds: number;
  singleton_key: string;
  start_after: number;
  now: number;
}

/**
 * Prepared statements of the embedded queue, written in SQL rather than drizzle because they are
 * the queue's hot path (claim, complete) and need RETURNING with subqueries and json_each.
 */
export function prepareStatements(db: Database.Database) {
  // Jobs are taken in the order they became ready (start_after, then id: the order sent for jobs
  // due at once), which is a walk of jobs_fetch from its start: a claim reads only what it takes,
  // however many jobs wait for their time behind it (held close documents, retries in backoff).
  const claimable = `name = @name AND state IN ('created', 'retry') AND start_after <= @now`;
  // The lease (@lease seconds, renewed by the worker's heartbeat), never past what the job may run.
  const leaseUntil = `@now + MIN(expire_in_seconds, @lease) * 1000`;
  return {
    insert: db.prepare<InsertParams, { id: number }>(`
      INSERT INTO jobs (name, data, state, policy, retry_limit, retry_delay, retry_backoff, expire_in_seconds,
                        singleton_key, start_after, created_at)
      VALUES (@name, @data, 'created', @policy, @retry_limit, @retry_delay, @retry_backoff, @expire_in_seconds,
              @singleton_key, @start_after, @now)
      ON CONFLICT DO NOTHING
      RETURNING id`),
    // A read: most fetches under load find nothing (every loop of a queue wakes on each send, one
    // takes the job), and an UPDATE that changes nothing still takes and gives back the write lock.
    anyClaimable: db.prepare<{ name: string; now: number }, 1>(`SELECT 1 FROM jobs WHERE ${claimable} LIMIT 1`).pluck(),
    claim: db.prepare<{ name: string; now: number; n: number; lease: number }, JobRow>(`
      UPDATE jobs SET state = 'active', started_at = @now, lease_until = ${leaseUntil}
      WHERE id IN (SELECT id FROM jobs WHERE ${claimable} ORDER BY start_after, id LIMIT @n)
      RETURNING *`),
    // Stately queues: never a second active job for a key (the unique index would refuse it).
    claimStately: db.prepare<{ name: string; now: number; lease: number }, JobRow>(`
      UPDATE jobs SET state = 'active', started_at = @now, lease_until = ${leaseUntil}
      WHERE id = (
        SELECT j.id FROM jobs j
        WHERE j.name = @name AND j.state IN ('created', 'retry') AND j.start_after <= @now
          AND NOT EXISTS (SELECT 1 FROM jobs a WHERE a.name = j.name AND a.state = 'active' AND a.singleton_key = j.singleton_key)
        ORDER BY j.start_after, j.id LIMIT 1)
      RETURNING *`),
    renew: db.prepare<{ ids: string; now: number; lease: number }>(`
      UPDATE jobs SET lease_until = ${leaseUntil}
      WHERE id IN (SELECT value FROM json_each(@ids)) AND state = 'active'`),
    complete: db.prepare<{ ids: string; now: number }>(`
      UPDATE jobs SET state = 'completed', completed_at = @now, lease_until = NULL
      WHERE id IN (SELECT value FROM json_each(@ids)) AND state = 'active'`),
    get: db.prepare<{ id: number }, JobRow>(`SELECT * FROM jobs WHERE id = @id`),
    retry: db.prepare<{ id: number; start_after: number; output: string }>(`
      UPDATE jobs SET state = 'retry', retry_count = retry_count + 1, start_after = @start_after,
        output = @output, lease_until = NULL
      WHERE id = @id`),
    // Back in line without spending an attempt (the store failed, not the job).
    release: db.prepare<{ id: number; start_after: number; output: string }>(`
      UPDATE jobs SET state = 'retry', start_after = @start_after, output = @output, lease_until = NULL
      WHERE id = @id AND state = 'active'`),
    dead: db.prepare<{ id: number; now: number; output: string }>(`
      UPDATE jobs SET state = 'failed', completed_at = @now, output = @output, lease_until = NULL WHERE id = @id`),
    expired: db.prepare<{ now: number; names: string }, JobRow>(`
      SELECT * FROM jobs WHERE state = 'active' AND lease_until < @now AND name IN (SELECT value FROM json_each(@names))`),
    purge: db.prepare<{ completedBefore: number; failedBefore: number }>(`
      DELETE FROM jobs WHERE (state IN ('completed', 'cancelled') AND completed_at < @completedBefore)
        OR (state = 'failed' AND completed_at < @failedBefore)`),
    retryDead: db.prepare<{ id: number; name: string; now: number }>(`
      UPDATE jobs SET state = 'retry', retry_limit = retry_limit + 1, start_after = @now, completed_at = NULL
      WHERE id = @id AND name = @name AND state = 'failed'`),
    listDead: db.prepare<{ name: string | null; limit: number }, JobRow>(`
      SELECT * FROM jobs WHERE state = 'failed' AND (@name IS NULL OR name = @name)
      ORDER BY completed_at DESC, id DESC LIMIT @limit`),
    counts: db.prepare<{ name: string | null }, { state: JobState; n: number }>(`
      SELECT state, count(*) AS n FROM jobs WHERE (@name IS NULL OR name = @name) GROUP BY state`),
    backlog: db.prepare<
      { name: string | null; now: number },
      { waiting: number; ready: number | null; oldest: number | null }
    >(`
      SELECT count(*) AS waiting, sum(start_after <= @now) AS ready, min(CASE WHEN start_after <= @now THEN start_after END) AS oldest
      FROM jobs WHERE state IN ('created', 'retry') AND (@name IS NULL OR name = @name)`),
    upsertQueue: db.prepare<{
      name: string;
      policy: string;
      retry_limit: number | null;
      retry_delay: number | null;
      retry_backoff: number | null;
      expire_in_seconds: number | null;
      now: number;
    }>(`
      INSERT INTO job_queues (name, policy, retry_limit, retry_delay, retry_backoff, expire_in_seconds, created_at)
      VALUES (@name, @policy, @retry_limit, @retry_delay, @retry_backoff, @expire_in_seconds, @now)
      ON CONFLICT (name) DO NOTHING`),
    getQueue: db.prepare<
      { name: string },
      {
        name: string;
        policy: 'standard' | 'stately';
        retry_limit: number | null;
        retry_delay: number | null;
        retry_backoff: 0 | 1 | null;
        expire_in_seconds: number | null;
      }
    >(`
      SELECT * FROM job_queues WHERE name = @name`),
    upsertSchedule: db.prepare<{ name: string; cron: string; data: string; tz: string | null; now: number }>(`
      INSERT INTO job_schedules (name, cron, data, tz, created_at, updated_at) VALUES (@name, @cron, @data, @tz, @now, @now)
      ON CONFLICT (name) DO UPDATE SET cron = excluded.cron, data = excluded.data, tz = excluded.tz, updated_at = excluded.updated_at`),
    deleteSchedule: db.prepare<{ name: string }>(`DELETE FROM job_schedules WHERE name = @name`),
    schedules: db.prepare<
      [],
      { name: string; cron: string; data: string; tz: string | null; last_fired_at: number | null }
    >(`SELECT * FROM job_schedules`),
    markFired: db.prepare<{ name: string; fired: number }>(`
      UPDATE job_schedules SET last_fired_at = @fired
      WHERE name = @name AND (last_fired_at IS NULL OR last_fired_at < @fired)`),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
