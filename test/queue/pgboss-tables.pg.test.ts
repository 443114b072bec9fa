import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossQueue } from '../../src/queue/pgboss.js';
import {
  BOSS_JOB_COLUMNS,
  BOSS_JOB_STATES,
  BOSS_TIMEOUT_MESSAGE,
  BossTables,
  bossJobInsertSql,
  bossJobOptions,
  FETCH_ORDER_INDEX,
  LEASE_INDEX,
} from '../../src/queue/pgboss-tables.js';
import type { RetryOptions } from '../../src/queue/types.js';
import { LEASE_EXPIRED } from '../../src/queue/types.js';
import { createPgStore, type PgStore } from '../../src/store/pg/store.js';
import { createTestSchema } from '../support/pg.js';
import { until } from '../support/wait.js';

const require = createRequire(import.meta.url);

/**
 * What `src/queue/pgboss-tables.ts` assumes of pg-boss's schema and behaviour, checked against the
 * installed pg-boss: a version that renames a column, changes a type or a state, or words its
 * timeout failure differently fails here, before the adapter misbehaves in production.
 */
describe('pg-boss tables as the adapter relies on them', () => {
  let db: Awaited<ReturnType<typeof createTestSchema>>;
  let store: PgStore;
  let queue: PgBossQueue;
  const bossSchema = () => `${db.schema}_boss`;

  beforeAll(async () => {
    db = await createTestSchema('pgboss-tables');
    store = createPgStore({ url: db.url, schema: db.schema, poolSize: 4 });
    queue = new PgBossQueue({ pool: store.database.pool, schema: bossSchema(), maintenanceIntervalSeconds: 3600 });
    await queue.start();
  });
  afterAll(async () => {
    await queue.stop({ graceMs: 0 });
    await store.close();
    await db.drop();
  });

  it('the installed pg-boss is the exact version package.json pins', () => {
    const pinned = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies['pg-boss'];
    const installed = (require('pg-boss/package.json') as { version: string }).version;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  it('the job table has every column the adapter reads or writes, with its type', async () => {
    const { rows } = await store.database.pool.query<{ column_name: string; data_type: string; udt_name: string }>(
      `SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'job'`,
      [bossSchema()],
    );
    const actual = Object.fromEntries(
      rows.map((r) => [r.column_name, r.data_type === 'USER-DEFINED' ? r.udt_name : r.data_type]),
    );
    for (const [column, type] of Object.entries(BOSS_JOB_COLUMNS)) expect(actual[column], column).toBe(type);
  });

  it('the job states are the ones the adapter names, in pg-boss order', async () => {
    const { rows } = await store.database.pool.query<{ label: string }>(
      `SELECT e.enumlabel AS label FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid JOIN pg_namespace n ON n.oid = t.typnamespace
       WHERE n.nspname = $1 AND t.typname = 'job_state' ORDER BY e.enumsortorder`,
      [bossSchema()],
    );
    expect(rows.map((r) => r.label)).toEqual([...BOSS_JOB_STATES]);
  });

  it('our indexes (lease sweep, fetch order) cover every queue partition, also those created after start', async () => {
    await queue.createQueue('made-later');
    const { rows: partitions } = await store.database.pool.query<{ partition_name: string }>(
      `SELECT partition_name FROM ${bossSchema()}.queue`,
    );
    expect(partitions.length).toBeGreaterThan(0);
    for (const [shape, state] of [
      ['(name, started_on)', "'active'"],
      ['(name, priority DESC, created_on, id)', "'active'"],
    ] as const) {
      const { rows } = await store.database.pool.query<{ tablename: string }>(
        `SELECT tablename FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE $2 AND indexdef LIKE $3`,
        [bossSchema(), `%${shape}%`, `%${state}%`],
      );
      expect(rows.map((r) => r.tablename)).toEqual(
        expect.arrayContaining(['job', ...partitions.map((p) => p.partition_name)]),
      );
    }
    // Starting again (another process) finds them and creates nothing.
    await new BossTables(store.database.pool, bossSchema()).ensureIndexes();
    const again = await store.database.pool.query(
      `SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2)`,
      [bossSchema(), [LEASE_INDEX, FETCH_ORDER_INDEX]],
    );
    expect(again.rowCount).toBe(2);
  });

  it("pg-boss's fetch walks the fetch-order index and stops after its batch, however long the backlog", async () => {
    await queue.createQueue('backlog');
    await queue.sendMany(
      'backlog',
      Array.from({ length: 3000 }, (_, i) => ({ data: { i } })),
    );
    await store.database.pool.query(`ANALYZE ${bossSchema()}.job`);
    const plans = require('pg-boss/src/plans.js') as {
      fetchNextJob: (schema: string) => (o: { includeMetadata: boolean }) => string;
    };
    const sql = plans.fetchNextJob(bossSchema())({ includeMetadata: true });
    const client = await store.database.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`,
        ['backlog', 50],
      );
      await client.query('ROLLBACK');
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      // On the queue's partition the index has Postgres's name for it (the columns, then _idx).
      const scan =
        /Index Scan using \S*(?:fetch_order|name_priority_created_on_id_idx) on \S+ job \(actual rows=(\d+)/.exec(plan);
      expect(scan, plan).not.toBeNull();
      expect(plan).not.toMatch(/Sort Key:[^\n]*created_on/);
      // The scan reads the batch, not the 3,000 waiting.
      const scanned = Number(scan![1]);
      expect(scanned).toBeLessThanOrEqual(50);
    } finally {
      client.release();
    }
  });

  it('a queue partition that changed more than it holds gets fresh statistics, once, from one process', async () => {
    await queue.createQueue('burst');
    const { rows: part } = await store.database.pool.query<{ partition_name: string }>(
      `SELECT partition_name FROM ${bossSchema()}.queue WHERE name = 'burst'`,
    );
    const partition = `${bossSchema()}.${part[0]!.partition_name}`;
    const tables = new BossTables(store.database.pool, bossSchema());
    // Under the 1,000-row floor: nothing to do.
    await queue.sendMany(
      'burst',
      Array.from({ length: 200 }, (_, i) => ({ data: { i } })),
    );
    expect(await tables.analyzeStale()).not.toContain(partition);
    await queue.sendMany(
      'burst',
      Array.from({ length: 2000 }, (_, i) => ({ data: { i } })),
    );
    // Backends hand their counts to the statistics a moment after they commit.
    const analyzed = await until(
      async () => {
        const done = await tables.analyzeStale();
        return done.includes(partition) ? done : undefined;
      },
      { timeoutMs: 30_000, message: 'the burst partition analyzed' },
    );
    expect(analyzed).toContain(partition);
    const { rows } = await store.database.pool.query<{ n_mod_since_analyze: string; last_analyze: Date | null }>(
      `SELECT n_mod_since_analyze, last_analyze FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2`,
      [bossSchema(), part[0]!.partition_name],
    );
    expect(rows[0]!.last_analyze).not.toBeNull();
    expect(await tables.analyzeStale()).not.toContain(partition);
  });

  it('two processes at once: one analyzes, the other skips without waiting', async () => {
    await queue.createQueue('burst-2');
    await queue.sendMany(
      'burst-2',
      Array.from({ length: 3000 }, (_, i) => ({ data: { i } })),
    );
    const holder = await store.database.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${bossSchema()}.analyze`]);
      // Stale, but another process holds the turn: nothing analyzed, and no wait.
      expect(await new BossTables(store.database.pool, bossSchema()).analyzeStale()).toEqual([]);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
  });

  /** A job row as pg-boss stored it, without what differs between two sends (id, times). */
  const jobRow = async (id: string) => {
    const { rows } = await store.database.pool.query<Record<string, unknown>>(
      `SELECT *, keep_until - start_after AS kept_for, start_after - created_on AS started_after FROM ${bossSchema()}.job WHERE id = $1`,
      [id],
    );
    const { id: _id, created_on: _c, start_after: _s, keep_until: _k, started_after: startedAfter, ...rest } = rows[0]!;
    return { ...rest, startsLate: (startedAfter as { seconds?: number }).seconds ?? 0 };
  };
  /** One job per source row through bossJobInsertSql, in a statement of ours. */
  const insertThroughFragment = async (name: string, options: RetryOptions, holdSeconds: number | null) => {
    const { rows } = await store.database.pool.query<{ id: string }>(
      `WITH src AS (SELECT '{"eventIds":[1,2]}'::jsonb AS data, now() + make_interval(secs => $1::float8) AS start_after WHERE true),
         jobs AS (${bossJobInsertSql(bossSchema(), 'src', '$2')})
       SELECT id FROM jobs`,
      [holdSeconds ?? 0, bossJobOptions(name, options)],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.id;
  };

  it("the job-insert fragment writes exactly the row pg-boss's send writes, for the same options and queue", async () => {
    await queue.createQueue('insert-plain');
    // A queue with options of its own: the fragment joins them as send does.
    await queue.boss.createQueue('insert-configured', {
      name: 'insert-configured',
      policy: 'standard',
      retryLimit: 7,
      retryDelay: 3,
      retryBackoff: false,
      expireInSeconds: 42,
      retentionMinutes: 90,
    });
    const cases: { name: string; options: RetryOptions; hold: number | null }[] = [
      {
        name: 'insert-plain',
        options: { retryLimit: 4, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
        hold: null,
      },
      {
        name: 'insert-plain',
        options: { retryLimit: 2, retryDelay: 0, retryBackoff: false, expireInSeconds: 300 },
        hold: 30,
      },
      { name: 'insert-plain', options: {}, hold: null },
      { name: 'insert-configured', options: {}, hold: null },
      { name: 'insert-configured', options: { retryLimit: 1, retryBackoff: true }, hold: 5 },
    ];
    for (const c of cases) {
      const sent = (await queue.boss.send(
        c.name,
        { eventIds: [1, 2] },
        { ...c.options, ...(c.hold ? { startAfter: c.hold } : {}) },
      ))!;
      const ours = await insertThroughFragment(c.name, c.options, c.hold);
      expect(await jobRow(ours), JSON.stringify(c)).toEqual(await jobRow(sent));
    }
    // Every column of the job table is compared above, so a column pg-boss adds shows up here.
    const expected = await jobRow(await insertThroughFragment('insert-plain', {}, null));
    expect(expected).toMatchObject({
      name: 'insert-plain',
      state: 'created',
      priority: 0,
      retry_count: 0,
      policy: 'standard',
      singleton_key: null,
    });
  });

  it('the job-insert fragment fails (rather than inserting nothing) for a queue that does not exist', async () => {
    await expect(insertThroughFragment('no-such-queue', {}, null)).rejects.toThrow(/partition/);
  });

  it("pg-boss's maintenance fails a job past its expire_in with the output the adapter matches, reported once", async () => {
    const name = 'timeout-output';
    await queue.createQueue(name);
    const id = (await queue.boss.send(name, {}, { expireInSeconds: 1, retryLimit: 0 }))!;
    const [fetched] = await queue.boss.fetch(name);
    expect(fetched?.id).toBe(id);
    // Make it run out its expire_in without waiting for it (and without our own lease sweep).
    await store.database.pool.query(
      `UPDATE ${bossSchema()}.job SET started_on = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    await queue.boss.maintain();
    const job = await queue.boss.getJobById(name, id);
    expect(job?.state).toBe('failed');
    expect(job?.output).toEqual({ value: { message: BOSS_TIMEOUT_MESSAGE } });

    const tables = new BossTables(store.database.pool, bossSchema());
    expect(await tables.takeUnreportedTimeouts([name])).toEqual([{ id, name }]);
    expect(await tables.takeUnreportedTimeouts([name])).toEqual([]);
  });

  it('a renewed job is not released; one past its lease is put back in line with retry_count counted by pg-boss at the next fetch', async () => {
    const name = 'renew-release';
    await queue.createQueue(name);
    const tables = new BossTables(store.database.pool, bossSchema());
    const id = (await queue.boss.send(name, {}, { expireInSeconds: 3600, retryLimit: 1 }))!;
    await queue.boss.fetch(name);
    await store.database.pool.query(
      `UPDATE ${bossSchema()}.job SET started_on = now() - interval '1 minute' WHERE id = $1`,
      [id],
    );
    await tables.renew(name, [id]);
    expect(await tables.releaseExpired([name], 10, LEASE_EXPIRED)).toEqual([]);

    await store.database.pool.query(
      `UPDATE ${bossSchema()}.job SET started_on = now() - interval '1 minute' WHERE id = $1`,
      [id],
    );
    expect(await tables.releaseExpired([name], 10, LEASE_EXPIRED)).toEqual([{ id, name, dead: false }]);
    const [again] = await queue.boss.fetch(name, { includeMetadata: true });
    expect(again).toMatchObject({ id, retryCount: 1 });
    // Its last attempt dies too: dead, reported by the sweep that released it.
    await store.database.pool.query(
      `UPDATE ${bossSchema()}.job SET started_on = now() - interval '1 minute' WHERE id = $1`,
      [id],
    );
    expect(await tables.releaseExpired([name], 10, LEASE_EXPIRED)).toEqual([{ id, name, dead: true }]);
    expect((await queue.boss.getJobById(name, id))?.state).toBe('failed');
  });

  it('a stately queue that already holds a retry for the key: the expired job is dead, as pg-boss itself decides', async () => {
    const name = 'stately-release';
    await queue.createQueue(name, { policy: 'stately' });
    const tables = new BossTables(store.database.pool, bossSchema());
    const first = (await queue.boss.send(name, { n: 1 }, { singletonKey: 'k', expireInSeconds: 3600, retryLimit: 3 }))!;
    await queue.boss.fetch(name);
    const second = (await queue.boss.send(name, { n: 2 }, { singletonKey: 'k', retryLimit: 3 }))!;
    await queue.boss.fail(name, second, { message: 'waits as a retry' });
    await store.database.pool.query(
      `UPDATE ${bossSchema()}.job SET started_on = now() - interval '1 minute' WHERE id = $1`,
      [first],
    );
    expect(await tables.releaseExpired([name], 10, LEASE_EXPIRED)).toEqual([{ id: first, name, dead: true }]);
  });
});
