/**
 * Jobs per second end to end (send 10,000, work them all) on both queue adapters, each against a
 * bare-table baseline on the same database: insert the same rows one by one, then claim and delete
 * them in batches of the same size with plain SQL. The ratio is what the queue's guarantees cost
 * over the raw writes. Usage: npm run bench:queue [-- --jobs 10000]
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
import { pooled, printTable, timed, writeResults, type Row } from './lib/report.js';

const QUICK = quick({ jobs: '2000' });

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '10000' }, pg: { type: 'string' } } });
const JOBS = Number(values.jobs);
const PG_URL = values.pg ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 100;

async function runQueue(queue: Queue, name: string, sendConcurrency: number, work: { batchSize: number; concurrency: number; pollIntervalMs: number }) {
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
  const queued = await runQueue(new SqliteQueue(store.database), 'bench', 1, { batchSize: BATCH, concurrency: 2, pollIntervalMs: 200 });
  await store.close();
  tmp.remove();
  return [
    { adapter: 'sqlite bare table (baseline)', 'send/s': Math.round(bareRate), 'jobs/s e2e': Math.round(bareRate), 'ratio': 1 },
    { adapter: 'embedded queue', 'send/s': Math.round(queued.sendPerSec), 'jobs/s e2e': Math.round(queued.e2ePerSec), 'ratio': queued.e2ePerSec / bareRate },
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
      await pooled(ids, 50, (i) => pool.query(`INSERT INTO ${schema}.bare (name, data) VALUES ($1, $2)`, ['bare', { i }]));
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
    await store.close();
    return [
      { adapter: 'postgres bare table (baseline)', 'send/s': Math.round(bareRate), 'jobs/s e2e': Math.round(bareRate), 'ratio': 1 },
      { adapter: 'pg-boss queue', 'send/s': Math.round(queued.sendPerSec), 'jobs/s e2e': Math.round(queued.e2ePerSec), 'ratio': queued.e2ePerSec / bareRate },
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
const title = `Queue: ${JOBS} jobs sent one by one, then worked in batches of ${BATCH}`;
printTable(title, rows);
const chart = ([['embedded queue (SQLite)', 0, 1], ['pg-boss queue (Postgres)', 2, 3]] as const).flatMap(([label, base, ours]) =>
  rows[ours] ? [{ label: `${label} vs bare table`, ours: rows[ours]['jobs/s e2e'] as number, baseline: rows[base]!['jobs/s e2e'] as number, unit: 'jobs/s' }] : [],
);
process.stdout.write(`\nwrote ${writeResults('queue', { jobs: JOBS, batch: BATCH, rows, quick: QUICK, tables: [{ title, rows }], chart })}\n`);
