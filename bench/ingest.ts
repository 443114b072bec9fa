// npm run bench:ingest [-- --duration 10 --warmup 3 --runs 1 --connections 50 --no-postgres --generator wrk|autocannon]
//
// Webhook ingest throughput: a bare Hono JSON echo (the baseline) and the receiver (auth +
// validation + durable insert + enqueue, through the service's whole app) on SQLite and on
// Postgres, with and without group commit. Each server runs in a child process; the load
// generator (wrk with one thread when installed, else autocannon in this process) runs over
// loopback. Prints req/s, p50, p99 and the ratio to the baseline, checks that every 2xx answer
// left a stored event, and writes bench/results/ingest.json.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/lib/config.js';
import { openStore } from '../src/store/index.js';
import { tempDir } from '../test/support/tmp.js';
import { quick } from './lib/quick.js';
import { load, wrkAvailable, type Generator } from './load.js';

const QUICK = quick({ duration: '3', warmup: '1' });

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    runs: { type: 'string', default: '1' },
    connections: { type: 'string', default: '50' },
    'no-postgres': { type: 'boolean', default: false },
    generator: { type: 'string' },
  },
});
const GENERATOR: Generator = opts.generator === 'autocannon' || opts.generator === 'wrk' ? opts.generator : (await wrkAvailable()) ? 'wrk' : 'autocannon';
const DURATION = Number(opts.duration);
const WARMUP = Number(opts.warmup);
const RUNS = Number(opts.runs);
const CONNECTIONS = Number(opts.connections);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const CONNECTION_ENV = {
  CONNECTION_NAME: 'bench',
  WMS_BASE_URL: 'http://127.0.0.1:9',
  WMS_CLIENT_ID: 'bench',
  WMS_CLIENT_SECRET: 'bench-secret',
  WEBHOOK_USERNAME: 'wms-bench',
  WEBHOOK_PASSWORD: 'bench-password',
  ERP_API_TOKEN: 'bench-erp-token-0123456789',
};
const AUTH = `Basic ${Buffer.from('wms-bench:bench-password').toString('base64')}`;
// The realistic reception fixture (about 1 KB), a fresh closingDocumentCode per request.
const fixture = JSON.parse(readFileSync(new URL('../fixtures/webhooks/reception-close.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const BODY = JSON.stringify({ ...fixture, closingDocumentCode: 'BENCH-[<id>]' });

interface Target {
  name: string;
  server: 'echo' | 'receiver';
  dialect?: 'sqlite' | 'postgres';
  env: Record<string, string>;
}

interface Row {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  ratio: number;
  acked: number;
  stored: number | null;
  errors: number;
}

function startServer(target: Target): Promise<{ url: string; stop: () => Promise<void> }> {
  const script = fileURLToPath(new URL(`./servers/${target.server}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...CONNECTION_ENV, ...target.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const early = (code: number | null) => reject(new Error(`${target.name}: server exited with ${code}`));
    child.once('exit', early);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = /^listening (\S+)$/.exec(line)?.[1];
      if (!url) return;
      child.off('exit', early);
      resolve({ url, stop: async () => (child.kill('SIGTERM'), await exited) });
    });
  });
}

let sequence = 0;
function loadRun(url: string, seconds: number) {
  sequence += 1;
  return load(GENERATOR, { url: `${url}/webhooks/bench/reception-close`, seconds, connections: CONNECTIONS, body: BODY, authorization: AUTH, runId: `${sequence}` });
}

async function storedEvents(target: Target): Promise<number> {
  const store = openStore(loadConfig({ ...CONNECTION_ENV, ...target.env }).database);
  try {
    const counts = await store.inbox.countByStatus();
    return counts.received + counts.processed;
  } finally {
    await store.close();
  }
}

async function runTarget(target: Target): Promise<Omit<Row, 'ratio'>> {
  const server = await startServer(target);
  let acked = 0;
  let errors = 0;
  try {
    const warm = await loadRun(server.url, WARMUP);
    const r = await loadRun(server.url, DURATION);
    acked = warm.ok + r.ok;
    errors = r.errors;
    await server.stop();
    const stored = target.server === 'receiver' ? await storedEvents(target) : null;
    return { name: target.name, reqPerSec: r.reqPerSec, p50: r.p50, p99: r.p99, acked, stored, errors };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function withFreshDatabase<T>(target: Target, fn: (t: Target) => Promise<T>): Promise<T> {
  if (target.server === 'echo') return fn(target);
  if (target.dialect === 'sqlite') {
    const tmp = tempDir('bench-ingest');
    try {
      return await fn({ ...target, env: { ...target.env, SQLITE_FILE: `${tmp.dir}/wms-sync.db` } });
    } finally {
      tmp.remove();
    }
  }
  const schema = `bench_ingest_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    return await fn({ ...target, env: { ...target.env, DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } });
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    await admin.end();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;


async function main(): Promise<void> {
  const withPostgres = !opts['no-postgres'] && (await postgresReachable());
  const targets: Target[] = [
    { name: 'baseline: bare Hono JSON echo', server: 'echo', env: {} },
    { name: 'receiver, SQLite, group commit', server: 'receiver', dialect: 'sqlite', env: {} },
    { name: 'receiver, SQLite, one commit per request', server: 'receiver', dialect: 'sqlite', env: { WEBHOOK_BATCH_MAX: '1' } },
  ];
  if (withPostgres) {
    targets.push(
      { name: 'receiver, Postgres, group commit', server: 'receiver', dialect: 'postgres', env: {} },
      { name: 'receiver, Postgres, one commit per request', server: 'receiver', dialect: 'postgres', env: { WEBHOOK_BATCH_MAX: '1' } },
    );
  } else {
    process.stdout.write(`Postgres not reachable at ${PG_URL.replace(/\/\/[^@]*@/, '//')} (or --no-postgres): Postgres rows left out.\n`);
  }
  process.stdout.write(`${GENERATOR}, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured, ${RUNS} run(s) each (median ratio), body ${BODY.length} bytes\n`);

  // The machine may be shared: each run measures the baseline next to the receivers and ratios
  // are taken within a run; the table shows, per target, the run with the median ratio.
  const runs = new Map<string, Row[]>();
  for (let run = 0; run < RUNS; run++) {
    let baseline = 0;
    for (const target of targets) {
      const result = await withFreshDatabase(target, runTarget);
      if (target.server === 'echo') baseline = result.reqPerSec;
      const row = { ...result, ratio: result.reqPerSec / baseline };
      runs.set(target.name, [...(runs.get(target.name) ?? []), row]);
      process.stdout.write(`  run ${run + 1}: ${target.name}: ${Math.round(row.reqPerSec)} req/s, p99 ${row.p99} ms, ratio ${row.ratio.toFixed(2)}\n`);
    }
  }
  const rows = targets.map((target) => {
    const rs = runs.get(target.name)!;
    const mid = median(rs.map((r) => r.ratio));
    return rs.find((r) => r.ratio === mid)!;
  });
  // Requests still in flight when the load generator stops are stored but not counted as 2xx.
  const storedOk = (r: Row) => r.stored !== null && r.stored >= r.acked && r.stored - r.acked <= 2 * CONNECTIONS;

  const lines = [
    '| target | req/s | p50 ms | p99 ms | ratio | every 2xx stored |',
    '|---|---:|---:|---:|---:|---|',
    ...rows.map((r) => {
      const check = r.stored === null ? '' : storedOk(r) ? `yes (${r.acked} 2xx, ${r.stored} rows)` : `NO: ${r.acked} 2xx, ${r.stored} rows`;
      return `| ${r.name} | ${Math.round(r.reqPerSec).toLocaleString('en-US')} | ${r.p50} | ${r.p99} | ${r.ratio.toFixed(2)} | ${check}${r.errors ? `, ${r.errors} errors` : ''} |`;
    }),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n`);

  mkdirSync(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
  writeFileSync(
    new URL('./results/ingest.json', import.meta.url),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        loadGenerator: `${GENERATOR === 'wrk' ? 'wrk -t1' : 'autocannon'}, ${CONNECTIONS} connections, loopback`,
        loadAverageAtEnd: os.loadavg(),
        durationSeconds: DURATION,
        warmupSeconds: WARMUP,
        runs: RUNS,
        bodyBytes: BODY.length,
        rows,
        allRuns: Object.fromEntries(runs),
        quick: QUICK,
        tables: [{ title: `${GENERATOR}, ${CONNECTIONS} connections, ${DURATION} s measured`, rows: rows.map((r) => ({ target: r.name, 'req/s': r.reqPerSec, 'p50 ms': r.p50, 'p99 ms': r.p99, ratio: r.ratio })) }],
        chart: rows.filter((r) => r !== rows[0]).map((r) => ({ label: r.name, ours: r.reqPerSec, baseline: r.reqPerSec / r.ratio, unit: 'req/s' })),
      },
      null,
      2,
    )}\n`,
  );
  if (rows.some((r) => r.stored !== null && !storedOk(r))) process.exitCode = 1;
}

await main();
