import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { HeldEvent, JobsInStatement, RecordedEvent } from './contract.js';
import { RECORD_MANY_SQL, type RecordManyRow, recordManyBatch } from './pg-record-many.js';

/**
 * The receiver's acknowledgement as ONE statement: RECORD_MANY_SQL's upsert, and in the same
 * statement the processing jobs of the events it newly stored as `received`. A single statement is
 * atomic in Postgres, so events and their jobs commit together without BEGIN/COMMIT: one round
 * trip per batch instead of four (BEGIN, events, job, COMMIT), which on a loopback socket cost the
 * receiver more in syscalls and idle waiting than the statements themselves.
 *
 * `held` carries each key's hold (of its first delivery in the batch, the one that counts), matched
 * to the upserted rows by key. Jobs: one for the new events not held (ids ascending), one per held
 * event starting `holdSeconds` later — the rule of ack-writer.ts `writeEvents` on SQLite.
 * The upsert locks its rows in the arrays' order, which the caller sorts by key.
 */
function statementText(jobs: JobsInStatement): string {
  return `WITH ev AS (${RECORD_MANY_SQL}),
    fresh AS (
      SELECT ev.id, h.seconds
      FROM ev JOIN unnest($1::text[], $3::text[], $14::float8[]) AS h(c, d, seconds) ON h.c = ev.connection AND h.d = ev.dedupe_key
      WHERE ev.inserted AND ev.status = 'received'
    ),
    job_rows AS (
      SELECT jsonb_build_object('eventIds', jsonb_agg(id ORDER BY id)) AS data, now() AS start_after
      FROM fresh WHERE seconds IS NULL HAVING count(*) > 0
      UNION ALL
      SELECT jsonb_build_object('eventIds', jsonb_build_array(id)), now() + make_interval(secs => seconds)
      FROM fresh WHERE seconds IS NOT NULL
    ),
    jobs AS (${jobs.insert('job_rows', '$15')})
    SELECT id, connection, dedupe_key, status, duplicates, inserted FROM ev`;
}

/** Prepared per text (the job table's schema is part of it): a name Postgres parses once per connection. */
const statements = new Map<string, { name: string; text: string }>();

function statementFor(jobs: JobsInStatement): { name: string; text: string } {
  const text = statementText(jobs);
  let statement = statements.get(text);
  if (!statement) {
    statement = { name: `wms_sync_inbox_ack_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`, text };
    statements.set(text, statement);
  }
  return statement;
}

export async function recordManyWithJobs(
  client: pg.Pool | pg.PoolClient,
  inputs: readonly HeldEvent[],
  jobs: JobsInStatement,
): Promise<{ event: RecordedEvent; duplicate: boolean }[]> {
  if (inputs.length === 0) return [];
  const batch = recordManyBatch(inputs);
  const holds = batch.firsts.map((input) => (input.holdSeconds ? input.holdSeconds : null));
  const { rows } = await client.query<RecordManyRow>({
    ...statementFor(jobs),
    values: [...batch.values, holds, jobs.value],
  });
  return batch.answer(rows);
}
