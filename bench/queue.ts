/**
 * Jobs per second end to end (send 10,000, work them all) on both queue adapters, each against a
 * bare-table baseline on the same database: insert the same rows one by one, then claim and delete
 * them in batches of the same size with plain SQL. The ratio is what the queue's guarantees cost
 * over the raw writes. Then one job at a time (--trickle, 1,000: each sent once the one before ran,
 * so each is fetched alone, as a webhook's job is between bursts), first in an empty queue, then
 * behind --held jobs (2,000) waiting there for a start an hour away (close documents held while the
 * ERP decides, jobs backing off before a retry): a fetch should not pay for them.
 * Usage: npm run bench:queue [-- --jobs 10000 --trickle 1000 --held 2000]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PgBossQueue } from '../src/queue/pgboss.js';
import { SqliteQueue } from '../src/queue/sqlite/queue.js';
import type { Queue } from '../src/queue/types.js';
import { createPgStore } from '../src/store/pg/store.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import { tempDir } from '../test/support/tmp.js';
import { quick } from './lib/quick.js';
import { pooled, printTable, type Row, timed, writeResults } from './lib/report.js';

const QUICK = quick({ jobs: '2000', trickle: '300', held: '1000' });

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '10000' },
    trickle: { type: 'string', default: '1000' },
    held: { type: 'string', default: '2000' },
    pg: { type: 'string' },
  },
});
const JOBS = Number(values.jobs);
const TRICKLE = Number(values.trickle);
const HELD = Number(values.held);
const PG_URL = values.pg ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 100;

async function runQueue(
  queue: Queue,
  name: string,
  sendConcurrency: number,
  work: { batchSize: number; concurrency: number; pollIntervalMs: number },
) {
  await queue.start();
  let done = 0;
  let allDone!: () => void;
  const finished = new Promise<void>((r) => (allDone = r));
  await queue.work(name, work, async () => {
    if (++done === JOBS) allDone();
  });
  const ids = Array.from({ length: JOBS }, (_, i) => i);
  const send = await timed(() => pooled(ids, sendConcurrency, (i) => queue.send(name, { i })));
  const total = await timed(() => finished);
  await queue.stop({ graceMs: 1000 });
  const e2eMs = send.ms + total.ms;
  return { sendPerSec: (JOBS / send.ms) * 1000, e2ePerSec: (JOBS / e2eMs) * 1000, e2eMs };
}

/** Jobs per second, one at a time: each sent once the one before ran; after `held` jobs were sent for an hour later. */
async function runTrickle(queue: Queue, name: string, held: number): Promise<number> {
  await queue.start();
  await pooled(
    Array.from({ length: held }, (_, i) => i),
    20,
    (i) => queue.send(name, { held: i }, { startAfter: 3600 }),
  );
  let ran: (() => void) | undefined;
  await queue.work(name, { batchSize: 1, concurrency: 1, pollIntervalMs: 200 }, async () => ran?.());
  const { ms } = await timed(async () => {
    for (let i = 0; i < TRICKLE; i++) {
      const done = new Promise<void>((r) => (ran = r));
      await queue.send(name, { i });
      await done;
    }
  });
  await queue.stop({ graceMs: 1000 });
  return (TRICKLE / ms) * 1000;
}

const trickleRow = (adapter: string, perSec: number, base: number): Row => ({
  adapter,
  'send/s': '-',
  'jobs/s e2e': Math.round(perSec),
  ratio: perSec / base,
});

async function sqliteBench(): Promise<Row[]> {
  const tmp = tempDir('bench-queue');
  const store = createSqliteStore({ file: `${tmp.dir}/q.db` });
  await store.migrate();
  const db = store.database.raw;
  db.exec('CREATE TABLE bare (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, data TEXT)');
  const insert = db.prepare('INSERT INTO bare (name, data) VALUES (?, ?)');
  const claim = db.prepare('DELETE FROM bare WHERE id IN (SELECT id FROM bare ORDER BY id LIMIT ?) RETURNING id');
  const bare = await timed(async () => {
    for (let i = 0; i < JOBS; i++) insert.run('bare', JSON.stringify({ i }));
    let n = 0;
    while (n < JOBS) n += claim.all(BATCH).length;
  });
  const bareRate = (JOBS / bare.ms) * 1000;
  const queued = await runQueue(new SqliteQueue(store.database), 'bench', 1, {
    batchSize: BATCH,
    concurrency: 2,
    pollIntervalMs: 200,
  });
  const alone = await runTrickle(new SqliteQueue(store.database), 'trickle', 0);
  const behind = await runTrickle(new SqliteQueue(store.database), 'trickle-held', HELD);
  await store.close();
  tmp.remove();
  return [
    {
      adapter: 'sqlite bare table (baseline)',
      'send/s': Math.round(bareRate),
      'jobs/s e2e': Math.round(bareRate),
      ratio: 1,
    },
    {
      adapter: 'embedded queue',
      'send/s': Math.round(queued.sendPerSec),
      'jobs/s e2e': Math.round(queued.e2ePerSec),
      ratio: queued.e2ePerSec / bareRate,
    },
    trickleRow(`embedded queue, ${TRICKLE} one at a time (baseline)`, alone, alone),
    trickleRow(`embedded queue, one at a time, ${HELD} jobs held`, behind, alone),
  ];
}

async function pgBench(): Promise<Row[]> {
  const schema = `bench_queue_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    const store = createPgStore({ url: PG_URL, schema, poolSize: 20 });
    await store.migrate();
    const pool = store.database.pool;
    await pool.query(`CREATE TABLE ${schema}.bare (id bigserial PRIMARY KEY, name text, data jsonb)`);
    const ids = Array.from({ length: JOBS }, (_, i) => i);
    const bare = await timed(async () => {
      await pooled(ids, 50, (i) =>
        pool.query(`INSERT INTO ${schema}.bare (name, data) VALUES ($1, $2)`, ['bare', { i }]),
      );
      let n = 0;
      while (n < JOBS) {
        const { rowCount } = await pool.query(
          `DELETE FROM ${schema}.bare WHERE id IN (SELECT id FROM ${schema}.bare ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)`,
          [BATCH],
        );
        n += rowCount ?? 0;
      }
    });
    const bareRate = (JOBS / bare.ms) * 1000;
    const queue = new PgBossQueue({ pool, schema: `${schema}_boss` });
    const queued = await runQueue(queue, 'bench', 50, { batchSize: BATCH, concurrency: 4, pollIntervalMs: 500 });
    const alone = await runTrickle(new PgBossQueue({ pool, schema: `${schema}_boss` }), 'trickle', 0);
    const behind = await runTrickle(new PgBossQueue({ pool, schema: `${schema}_boss` }), 'trickle-held', HELD);
    await store.close();
    return [
      {
        adapter: 'postgres bare table (baseline)',
        'send/s': Math.round(bareRate),
        'jobs/s e2e': Math.round(bareRate),
        ratio: 1,
      },
      {
        adapter: 'pg-boss queue',
        'send/s': Math.round(queued.sendPerSec),
        'jobs/s e2e': Math.round(queued.e2ePerSec),
        ratio: queued.e2ePerSec / bareRate,
      },
      trickleRow(`pg-boss queue, ${TRICKLE} one at a time (baseline)`, alone, alone),
      trickleRow(`pg-boss queue, one at a time, ${HELD} jobs held`, behind, alone),
    ];
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await admin.end();
  }
}

const rows = await sqliteBench();
try {
  rows.push(...(await pgBench()));
} catch (err) {
  process.stdout.write(`\nPostgres part skipped: ${(err as Error).message} (set BENCH_DATABASE_URL)\n`);
}
const title = `Queue: ${JOBS} jobs sent one by one, then worked in batches of ${BATCH}; ${TRICKLE} one at a time, alone and behind ${HELD} held for an hour`;
printTable(title, rows);
const chart = (
  [
    ['embedded queue (SQLite)', 0, 1],
    [`embedded: 1 by 1, ${HELD} held`, 2, 3],
    ['pg-boss queue (Postgres)', 4, 5],
    [`pg-boss: 1 by 1, ${HELD} held`, 6, 7],
  ] as const
).flatMap(([label, base, ours]) =>
  rows[ours]
    ? [
        {
          label: `${label} vs ${base % 4 === 0 ? 'bare table' : 'none'}`,
          ours: rows[ours]['jobs/s e2e'] as number,
          baseline: rows[base]!['jobs/s e2e'] as number,
          unit: 'jobs/s',
        },
      ]
    : [],
);
process.stdout.write(
  `\nwrote ${writeResults('queue', { jobs: JOBS, trickle: TRICKLE, held: HELD, batch: BATCH, rows, quick: QUICK, tables: [{ title, rows }], chart })}\n`,
);
