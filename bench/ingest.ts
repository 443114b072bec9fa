// npm run bench:ingest [-- --duration 10 --warmup 3 --runs 1 --connections 50 --no-postgres --generator wrk|autocannon --cpu-prof DIR --only NAME]
//
// Webhook ingest as users run it: `wms-sync serve` itself (receiver and worker in one process,
// its defaults) on SQLite and on Postgres, on Postgres also `serve` beside one `worker` process,
// and the receiver alone (no worker: a reference, not a deployment) beside a bare Hono JSON echo,
// the baseline measured in the same run. Each server runs in a child process; the load generator
// (autocannon in this process, or wrk with one thread) runs over loopback with ~1 KB
// reception-close bodies, a fresh closingDocumentCode per request.
//
// Per row: req/s, p50, p99, the ratio to the echo, and, once the load stops, the bench waits until
// the service has processed every stored event, then counts them against the 2xx answers and reads
// the processing lag (received_at, set when the delivery is stored, to processed_at) from the store.
// Writes bench/results/ingest.json with `tables` and `chart`.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { tempDir } from '../test/support/tmp.js';
import { BENCH_PG_URL, postgresAnswers } from './lib/postgres.js';
import { quick } from './lib/quick.js';
import { printTable, writeResults } from './lib/report.js';
import { type Generator, load, wrkAvailable } from './load.js';

const QUICK = quick({ duration: '3', warmup: '1' });

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    runs: { type: 'string', default: '1' },
    connections: { type: 'string', default: '50' },
    'no-postgres': { type: 'boolean', default: false },
    generator: { type: 'string' },
    // Writes a V8 CPU profile of each service process (node --cpu-prof) into this directory.
    'cpu-prof': { type: 'string' },
    // Runs the echo and the targets whose name contains this text only.
    only: { type: 'string' },
    // How long to wait, after the load, for every stored event to be processed.
    'drain-timeout': { type: 'string', default: '120' },
  },
});
const GENERATOR: Generator = opts.generator === 'wrk' ? 'wrk' : 'autocannon';
if (GENERATOR === 'wrk' && !(await wrkAvailable())) throw new Error('--generator wrk: wrk is not installed');
const DURATION = Number(opts.duration);
const WARMUP = Number(opts.warmup);
const RUNS = Number(opts.runs);
const CONNECTIONS = Number(opts.connections);
const DRAIN_TIMEOUT_MS = Number(opts['drain-timeout']) * 1000;
const PG_URL = BENCH_PG_URL;
const CLI = fileURLToPath(new URL('../bin/wms-sync.js', import.meta.url));

const CONNECTION_ENV = {
  CONNECTION_NAME: 'bench',
  // Nothing listens there: the bench measures the inbound side; pushes have nothing to send.
  WMS_BASE_URL: 'http://127.0.0.1:9',
  WMS_CLIENT_ID: 'bench',
  WMS_CLIENT_SECRET: 'bench-secret',
  WEBHOOK_USERNAME: 'wms-bench',
  WEBHOOK_PASSWORD: 'bench-password',
  ERP_API_TOKEN: 'bench-erp-token-0123456789',
};
const AUTH = `Basic ${Buffer.from('wms-bench:bench-password').toString('base64')}`;
// The realistic reception fixture (about 1 KB), a fresh closingDocumentCode per request.
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/webhooks/reception-close.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;
const BODY = JSON.stringify({ ...fixture, closingDocumentCode: 'BENCH-[<id>]' });

type Process = 'echo' | 'receiver' | 'serve';

interface Target {
  name: string;
  /** The processes of the deployment: the first one answers the webhooks. */
  processes: [Process] | ['serve', 'worker'];
  dialect?: 'sqlite' | 'postgres';
  env: Record<string, string>;
}

interface Measured {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  /** 2xx answers, warm-up included. */
  acked: number;
  errors: number;
  /** Events stored and processed once everything drained; null for the echo and the receiver alone. */
  stored: number | null;
  processed: number | null;
  lagP50Ms: number | null;
  lagP99Ms: number | null;
  /** From the end of the load until the last stored event was processed. */
  drainMs: number | null;
  /**
   * CPU time of the target's processes per event (µs), from the start of the load until every
   * event was processed: steadier than req/s on a shared machine (a process waiting for a core
   * uses none).
   */
  cpuUsPerEvent: number;
  /** Stored events per status once drained. */
  statuses: Record<string, number> | null;
}

interface Row extends Measured {
  ratio: number;
}

interface Running {
  url?: string;
  /** CPU time the process used so far, in ms (user + system). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** A Linux process's user + system CPU time from /proc (clock ticks of 10 ms); 0 elsewhere. */
function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Starts one process of a target and resolves once it is ready (listening, or its worker running). */
function startProcess(kind: Process | 'worker', target: Target): Promise<Running> {
  const nodeArgs = opts['cpu-prof']
    ? [
        '--cpu-prof',
        '--cpu-prof-dir',
        opts['cpu-prof'],
        '--cpu-prof-name',
        `${kind}-${target.name.replace(/\W+/g, '-')}-${Date.now()}.cpuprofile`,
      ]
    : [];
  const args =
    kind === 'serve' || kind === 'worker'
      ? [...nodeArgs, CLI, kind, ...(kind === 'serve' ? ['--port', '0'] : [])]
      : [...nodeArgs, '--import', 'tsx', fileURLToPath(new URL(`./servers/${kind}.ts`, import.meta.url))];
  // `serve` and `worker` run with the service's defaults (LOG_LEVEL info); the servers of this
  // bench print their address themselves.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...CONNECTION_ENV, ...target.env };
  if (kind === 'echo' || kind === 'receiver') env.LOG_LEVEL = 'warn';
  const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const early = (code: number | null) => reject(new Error(`${target.name}: ${kind} exited with ${code}`));
    child.once('exit', early);
    let ready = false;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      // Warnings and errors of the service (pino levels 40 and up) are shown: a bench that fails
      // should say why.
      if (/^\{"level":(4|5|6)0[,}]/.test(line)) process.stderr.write(`  [${kind}] ${line.slice(0, 400)}\n`);
      if (ready) return;
      const url = readyUrl(kind, line);
      if (url === undefined) return;
      ready = true;
      child.off('exit', early);
      resolve({
        ...(url ? { url } : {}),
        cpuMs: () => cpuMsOf(child.pid),
        stop: async () => (child.kill('SIGTERM'), await exited),
      });
    });
  });
}

/** The URL a ready process announced ('' for a worker, which listens nowhere), else undefined. */
function readyUrl(kind: Process | 'worker', line: string): string | undefined {
  if (kind === 'echo' || kind === 'receiver') return /^listening (\S+)$/.exec(line)?.[1];
  try {
    const log = JSON.parse(line) as { msg?: string; url?: string };
    if (kind === 'serve' && log.msg === 'wms-sync listening') return log.url;
    if (kind === 'worker' && log.msg === 'wms-sync worker running') return '';
  } catch {
    // not a log line
  }
  return undefined;
}

let sequence = 0;
function loadRun(url: string, seconds: number) {
  sequence += 1;
  return load(GENERATOR, {
    url: `${url}/webhooks/bench/reception-close`,
    seconds,
    connections: CONNECTIONS,
    body: BODY,
    authorization: AUTH,
    runId: `${sequence}`,
  });
}

/** Reads the store directly: status counts and each processed event's lag (ms). */
interface Probe {
  counts(): Promise<Record<string, number>>;
  lags(): Promise<number[]>;
  close(): Promise<void>;
}

function probeOf(target: Target): Probe {
  if (target.dialect === 'sqlite') {
    const db = new Database(target.env.SQLITE_FILE!, { readonly: true });
    db.pragma('busy_timeout = 5000');
    return {
      counts: async () =>
        Object.fromEntries(
          (
            db.prepare('SELECT status, count(*) AS n FROM inbound_events GROUP BY status').all() as {
              status: string;
              n: number;
            }[]
          ).map((r) => [r.status, r.n]),
        ),
      // Times are stored as epoch milliseconds.
      lags: async () =>
        (
          db
            .prepare("SELECT processed_at - received_at AS lag FROM inbound_events WHERE status = 'processed'")
            .all() as { lag: number }[]
        ).map((r) => r.lag),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
  const connected = client.connect();
  return {
    counts: async () => {
      await connected;
      const { rows } = await client.query<{ status: string; n: string }>(
        'SELECT status, count(*) AS n FROM inbound_events GROUP BY status',
      );
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
    lags: async () => {
      await connected;
      const { rows } = await client.query<{ lag: number }>(
        "SELECT extract(epoch FROM processed_at - received_at) * 1000 AS lag FROM inbound_events WHERE status = 'processed'",
      );
      return rows.map((r) => Number(r.lag));
    },
    close: () => client.end(),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Waits until no stored event is left unprocessed (none `received`), polling the store. */
async function drain(probe: Probe): Promise<number> {
  const started = performance.now();
  for (;;) {
    const counts = await probe.counts();
    if ((counts.received ?? 0) === 0) return performance.now() - started;
    if (performance.now() - started > DRAIN_TIMEOUT_MS)
      throw new Error(`events still unprocessed after ${DRAIN_TIMEOUT_MS / 1000} s: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function runTarget(target: Target): Promise<Measured> {
  const processes: Running[] = [];
  try {
    for (const kind of target.processes) processes.push(await startProcess(kind, target));
    const url = processes[0]!.url!;
    const cpuMs = () => processes.reduce((sum, p) => sum + p.cpuMs(), 0);
    const cpuAtStart = cpuMs();
    const warm = await loadRun(url, WARMUP);
    const r = await loadRun(url, DURATION);
    const acked = warm.ok + r.ok;
    const cpuUsPerEvent = () => ((cpuMs() - cpuAtStart) * 1000) / acked;
    const base = { name: target.name, reqPerSec: r.reqPerSec, p50: r.p50, p99: r.p99, acked, errors: r.errors };
    if (target.processes[0] === 'echo')
      return {
        ...base,
        stored: null,
        processed: null,
        lagP50Ms: null,
        lagP99Ms: null,
        drainMs: null,
        cpuUsPerEvent: cpuUsPerEvent(),
        statuses: null,
      };
    const probe = probeOf(target);
    try {
      if (target.processes[0] === 'receiver') {
        const counts = await probe.counts();
        return {
          ...base,
          stored: counts.received ?? 0,
          processed: null,
          lagP50Ms: null,
          lagP99Ms: null,
          drainMs: null,
          cpuUsPerEvent: cpuUsPerEvent(),
          statuses: counts,
        };
      }
      const drainMs = await drain(probe);
      const cpu = cpuUsPerEvent();
      const counts = await probe.counts();
      const lags = (await probe.lags()).sort((a, b) => a - b);
      const stored = Object.values(counts).reduce((a, b) => a + b, 0);
      return {
        ...base,
        stored,
        processed: counts.processed ?? 0,
        lagP50Ms: percentile(lags, 50),
        lagP99Ms: percentile(lags, 99),
        drainMs,
        cpuUsPerEvent: cpu,
        statuses: counts,
      };
    } finally {
      await probe.close();
    }
  } finally {
    for (const p of processes.reverse()) await p.stop();
  }
}

async function withFreshDatabase<T>(target: Target, fn: (t: Target) => Promise<T>): Promise<T> {
  if (!target.dialect) return fn(target);
  if (target.dialect === 'sqlite') {
    const tmp = tempDir('bench-ingest');
    try {
      return await fn({ ...target, env: { ...target.env, DATA_DIR: tmp.dir, SQLITE_FILE: `${tmp.dir}/wms-sync.db` } });
    } finally {
      tmp.remove();
    }
  }
  // A database of its own, as a deployment has: advisory locks (the feed-order lock) are per
  // database, so other work on the same server's database (tests, other benches) would contend.
  const name = `bench_ingest_${Math.random().toString(36).slice(2, 8)}`;
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const tmp = tempDir('bench-ingest');
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    // The first process migrates; a second one (the worker) starts once the first is ready.
    return await fn({ ...target, env: { ...target.env, DATA_DIR: tmp.dir, DATABASE_URL: url.toString() } });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    tmp.remove();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The goals (ratio to the same-run echo, p99 at 50 connections; docs/benchmarks.md). */
const GOALS: Record<string, { ratio: number; p99: number }> = {
  'wms-sync serve, SQLite': { ratio: 0.3, p99: 50 },
  'wms-sync serve, Postgres': { ratio: 0.25, p99: 50 },
  'wms-sync serve + 1 worker, Postgres': { ratio: 0.25, p99: 50 },
  'receiver alone, SQLite (reference)': { ratio: 0.5, p99: Infinity },
  'wms-sync serve, SQLite, traced (OTLP)': { ratio: 0.15, p99: Infinity },
  'receiver alone, Postgres (reference)': { ratio: 0.3, p99: Infinity },
};
const LAG_GOAL_MS = 1000;

/**
 * An OTLP/HTTP collector that takes every export and keeps nothing: the traced row pays for making
 * and sending its spans, not for a collector's storage. It runs in this process, beside the load
 * generator.
 */
async function otlpSink(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Never what keeps the bench running.
  server.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function main(): Promise<void> {
  const withPostgres = !opts['no-postgres'] && (await postgresAnswers());
  const sink = await otlpSink();
  let targets: Target[] = [
    { name: 'baseline: bare Hono JSON echo', processes: ['echo'], env: {} },
    { name: 'wms-sync serve, SQLite', processes: ['serve'], dialect: 'sqlite', env: {} },
    {
      name: 'wms-sync serve, SQLite, traced (OTLP)',
      processes: ['serve'],
      dialect: 'sqlite',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
    },
    { name: 'receiver alone, SQLite (reference)', processes: ['receiver'], dialect: 'sqlite', env: {} },
  ];
  if (withPostgres) {
    targets.push(
      { name: 'wms-sync serve, Postgres', processes: ['serve'], dialect: 'postgres', env: {} },
      { name: 'wms-sync serve + 1 worker, Postgres', processes: ['serve', 'worker'], dialect: 'postgres', env: {} },
      { name: 'receiver alone, Postgres (reference)', processes: ['receiver'], dialect: 'postgres', env: {} },
    );
  } else {
    process.stdout.write(
      `Postgres not reachable at ${PG_URL.replace(/\/\/[^@]*@/, '//')} (or --no-postgres): Postgres rows left out.\n`,
    );
  }
  if (opts.only) targets = targets.filter((t) => t.processes[0] === 'echo' || t.name.includes(opts.only!));
  process.stdout.write(
    `${GENERATOR}, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured, ${RUNS} run(s) each (median ratio), body ${BODY.length} bytes\n`,
  );

  // The machine may be shared: each run measures the echo next to the service and ratios are
  // taken within a run; the table shows, per target, the run with the median ratio.
  const runs = new Map<string, Row[]>();
  for (let run = 0; run < RUNS; run++) {
    let baseline = 0;
    for (const target of targets) {
      const result = await withFreshDatabase(target, runTarget);
      if (target.processes[0] === 'echo') baseline = result.reqPerSec;
      const row = { ...result, ratio: result.reqPerSec / baseline };
      runs.set(target.name, [...(runs.get(target.name) ?? []), row]);
      const lag =
        row.lagP99Ms === null
          ? ''
          : `, lag p99 ${Math.round(row.lagP99Ms)} ms, drained in ${Math.round(row.drainMs!)} ms`;
      if (row.processed !== null && row.processed !== row.stored)
        process.stdout.write(`  run ${run + 1}: ${target.name}: NOT all processed: ${JSON.stringify(row.statuses)}\n`);
      process.stdout.write(
        `  run ${run + 1}: ${target.name}: ${Math.round(row.reqPerSec)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ratio ${row.ratio.toFixed(2)}, ${Math.round(row.cpuUsPerEvent)} µs CPU/event${lag}\n`,
      );
    }
  }
  const rows = targets.map((target) => {
    const rs = runs.get(target.name)!;
    const mid = median(rs.map((r) => r.ratio));
    return rs.find((r) => r.ratio === mid)!;
  });

  // Requests in flight when the generator stops are stored but not counted as 2xx.
  const storedOk = (r: Row) => r.stored !== null && r.stored >= r.acked && r.stored - r.acked <= 2 * CONNECTIONS;
  const allProcessed = (r: Row) => r.processed === null || r.processed === r.stored;
  const check = (r: Row) => {
    if (r.stored === null) return '';
    const stored = storedOk(r) ? 'every 2xx stored' : `NOT every 2xx stored (${r.acked} 2xx, ${r.stored} rows)`;
    if (r.processed === null) return `${stored} (${r.stored}); not processed (no worker)`;
    return `${stored}, ${allProcessed(r) ? 'all processed' : `NOT all processed: ${JSON.stringify(r.statuses)}`} (${r.processed} of ${r.stored})`;
  };
  const goalOf = (r: Row) => {
    const goal = GOALS[r.name];
    if (!goal) return '';
    const met = r.ratio >= goal.ratio && r.p99 < goal.p99 && (r.lagP99Ms === null || r.lagP99Ms < LAG_GOAL_MS);
    return `≥ ${goal.ratio.toFixed(2)}${Number.isFinite(goal.p99) ? `, p99 < ${goal.p99} ms` : ''}${r.lagP99Ms === null ? '' : ', lag p99 < 1 s'}: ${met ? 'met' : 'NOT met'}`;
  };
  const table = rows.map((r) => ({
    target: r.name,
    'req/s': Math.round(r.reqPerSec),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    ratio: Number(r.ratio.toFixed(2)),
    'CPU µs/event': Math.round(r.cpuUsPerEvent),
    'lag p50 ms': r.lagP50Ms === null ? '-' : Math.round(r.lagP50Ms),
    'lag p99 ms': r.lagP99Ms === null ? '-' : Math.round(r.lagP99Ms),
    events: check(r) + (r.errors ? `, ${r.errors} errors` : ''),
    goal: goalOf(r),
  }));
  const title = `Ingest at ${CONNECTIONS} connections (${GENERATOR}, ${DURATION} s, ~${BODY.length} B reception-close bodies)`;
  printTable(title, table);

  const file = writeResults('ingest', {
    loadGenerator: `${GENERATOR === 'wrk' ? 'wrk -t1' : 'autocannon'}, ${CONNECTIONS} connections, loopback`,
    durationSeconds: DURATION,
    warmupSeconds: WARMUP,
    runs: RUNS,
    bodyBytes: BODY.length,
    quick: QUICK,
    tables: [{ title, rows: table }],
    chart: rows
      .slice(1)
      // Each row against the echo of its own run (the one its ratio is taken against).
      .map((r) => ({
        label: r.name,
        ours: Math.round(r.reqPerSec),
        baseline: Math.round(r.reqPerSec / r.ratio),
        unit: 'req/s',
      })),
    rows,
    allRuns: Object.fromEntries(runs),
  });
  process.stdout.write(`\nwrote ${file}\n`);
  if (rows.some((r) => (r.stored !== null && !storedOk(r)) || !allProcessed(r))) process.exitCode = 1;
}

await main();
