// npm run bench:footprint [-- --runs 7 --idle 10 --duration 30 --connections 50 --quick]
//
// What production runs, measured as users deploy it: the image's tree (scripts/production-tree.ts,
// from the Dockerfile's COPY lines) in a temp folder, started with NODE_ENV=production.
//   - its size: node_modules, dist/, packages;
//   - cold start of `serve` (SQLite, fresh data) from spawn to the first /healthz 200, beside a bare
//     Hono server's start measured in the same run (interleaved, medians);
//   - `wms-sync start --fresh` to its summary, from the production tree and from the checkout
//     (what `npm start` runs after `npm install`: the build `prepare` made, fresh);
//   - RSS of `serve` idle after --idle seconds, and at the end of a --duration ingest of
//     reception-close webhooks at --connections; on Postgres (when one answers) the same for
//     `serve` beside one `worker` process, the worker doing the processing.
// Writes bench/results/footprint.json with `tables` and `chart`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { dataDir, openTree, SERVE_LISTENING, startProduction } from '../scripts/production-process.js';
import { makeProductionTree } from '../scripts/production-tree.js';
import { BENCH_PG_URL, postgresAnswers } from './lib/postgres.js';
import { quick } from './lib/quick.js';
import { printTable, writeResults } from './lib/report.js';
import { load } from './load.js';

const QUICK = quick({ runs: '3', idle: '3', duration: '5' });
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    idle: { type: 'string', default: '10' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
  },
});
const RUNS = Number(opts.runs);
const IDLE_S = Number(opts.idle);
const DURATION_S = Number(opts.duration);
const CONNECTIONS = Number(opts.connections);
const GOALS = { modulesMb: 60, coldMs: 1000, coldRatio: 4, idleMb: 90, ingestMb: 200, startMs: 3000 };

const CONNECTION = {
  CONNECTION_NAME: 'bench',
  WMS_BASE_URL: 'http://127.0.0.1:9',
  WMS_CLIENT_ID: 'bench',
  WMS_CLIENT_SECRET: 'bench-secret',
  WEBHOOK_USERNAME: 'wms-bench',
  WEBHOOK_PASSWORD: 'bench-password',
  ERP_API_TOKEN: 'bench-erp-token-0123456789',
  LOG_LEVEL: 'warn',
};
const AUTH = `Basic ${Buffer.from('wms-bench:bench-password').toString('base64')}`;
const fixture = JSON.parse(readFileSync(new URL('../fixtures/webhooks/reception-close.json', import.meta.url), 'utf8'));
const BODY = JSON.stringify({ ...fixture, closingDocumentCode: 'FOOTPRINT-[<id>]' });

const load1 = () => loadavg()[0]!.toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const du = (path: string) => Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]);
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Spawn to the first 200 of /healthz, in ms; the process is stopped after. */
async function coldStart(cwd: string, args: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: 'ignore',
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${args.join(' ')} exited before answering /healthz`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(5);
  }
  const ms = performance.now() - t0;
  await new Promise((r) => {
    child.once('exit', r);
    child.kill('SIGTERM');
  });
  return ms;
}

/** `start --fresh` to its summary line, in ms. */
async function startToSummary(cwd: string, data: string, developer: boolean): Promise<number> {
  const t0 = performance.now();
  const args = ['start', '--fresh', '--port', '0', '--emulator-port', '0', '--erp-port', '0'];
  const proc = startProduction(cwd, args, { DATA_DIR: data }, { developer });
  await proc.waitFor(/wms-sync is running/, 120_000);
  const ms = performance.now() - t0;
  await proc.stop();
  return ms;
}

const base = mkdtempSync(join(tmpdir(), 'wms-sync-footprint-'));
const tree = join(base, 'app');
makeProductionTree(tree);
openTree(base);
writeFileSync(
  join(tree, 'bare-hono.mjs'),
  "import { serve } from '@hono/node-server';\nimport { Hono } from 'hono';\nconst app = new Hono();\napp.get('/healthz', (c) => c.json({ status: 'ok' }));\nserve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });\n",
);
const modules = du(join(tree, 'node_modules'));
const dist = du(join(tree, 'dist'));
const packages =
  execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: tree, encoding: 'utf8' }).trim().split('\n')
    .length - 1;
const devModules = du(join(process.cwd(), 'node_modules'));
const loadBefore = load1();

const serveMs: number[] = [];
const bareMs: number[] = [];
for (let i = 0; i < RUNS; i++) {
  bareMs.push(await coldStart(tree, ['bare-hono.mjs'], {}));
  serveMs.push(
    await coldStart(tree, ['bin/wms-sync.js', 'serve'], { ...CONNECTION, DATA_DIR: dataDir(tree, `cold-${i}`) }),
  );
}
const startRuns = Math.min(RUNS, 3);
const startBuilt: number[] = [];
const startSources: number[] = [];
for (let i = 0; i < startRuns; i++) {
  startBuilt.push(await startToSummary(tree, dataDir(tree, `start-${i}`), false));
  startSources.push(await startToSummary(process.cwd(), join(base, `start-src-${i}`), true));
}
const loadAfterStarts = load1();

interface Memory {
  label: string;
  idle: number;
  afterIngest: number;
  acked: number;
}

async function memory(label: string, db: Record<string, string>, withWorker: boolean): Promise<Memory[]> {
  const env = { ...CONNECTION, ...db, DATA_DIR: dataDir(tree, `mem-${label}`), PORT: '0', HOST: '127.0.0.1' };
  const serve = startProduction(tree, ['serve'], { ...env, LOG_LEVEL: 'info' });
  let worker: ReturnType<typeof startProduction> | undefined;
  try {
    const url = (await serve.waitFor(SERVE_LISTENING))[1]!;
    // After serve has migrated: two processes creating a fresh database's schemas at once can collide.
    worker = withWorker ? startProduction(tree, ['worker'], { ...env, LOG_LEVEL: 'info' }) : undefined;
    await worker?.waitFor(/wms-sync worker running/);
    await sleep(IDLE_S * 1000);
    const idle = [rssOf(serve.child.pid!), worker ? rssOf(worker.child.pid!) : 0];
    const r = await load('autocannon', {
      url: `${url}/webhooks/bench/reception-close`,
      seconds: DURATION_S,
      connections: CONNECTIONS,
      body: BODY,
      authorization: AUTH,
      runId: `${label}-${Date.now()}`,
    });
    const after = [rssOf(serve.child.pid!), worker ? rssOf(worker.child.pid!) : 0];
    const rows = [{ label: `serve, ${label}`, idle: idle[0]!, afterIngest: after[0]!, acked: r.ok }];
    if (worker) rows.push({ label: `worker, ${label}`, idle: idle[1]!, afterIngest: after[1]!, acked: r.ok });
    return rows;
  } finally {
    await serve.stop();
    await worker?.stop();
  }
}

const mem: Memory[] = await memory('SQLite', {}, false);
if (await postgresAnswers()) {
  const schema = `footprint_${process.pid}`;
  const sql = async (q: string) => {
    const c = new pg.Client({ connectionString: BENCH_PG_URL });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await sql(`CREATE SCHEMA "${schema}"`);
  try {
    mem.push(...(await memory('Postgres', { DATABASE_URL: BENCH_PG_URL, DATABASE_SCHEMA: schema }, true)));
  } finally {
    await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_boss" CASCADE`);
  }
}
const loadEnd = load1();
rmSync(base, { recursive: true, force: true });

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const cold = median(serveMs);
const bare = median(bareMs);
const treeRows = [
  {
    what: 'production node_modules',
    measured: `${mb(modules)} MB, ${packages} packages`,
    goal: `≤ ${GOALS.modulesMb} MB: ${met(mb(modules) <= GOALS.modulesMb)}`,
  },
  { what: 'dist/ (bundle, source maps, assets)', measured: `${mb(dist)} MB`, goal: '' },
  { what: 'development node_modules (reference)', measured: `${mb(devModules)} MB`, goal: '' },
];
const startRows = [
  {
    process: 'baseline: bare Hono server',
    'median ms': Math.round(bare),
    runs: bareMs.map(Math.round).join(' '),
    ratio: 1,
    goal: '',
  },
  {
    process: 'wms-sync serve, SQLite, fresh data',
    'median ms': Math.round(cold),
    runs: serveMs.map(Math.round).join(' '),
    ratio: Number((cold / bare).toFixed(1)),
    goal: `≤ ${GOALS.coldMs} ms and ≤ ${GOALS.coldRatio}×: ${met(cold <= GOALS.coldMs && cold / bare <= GOALS.coldRatio)}`,
  },
  {
    process: 'wms-sync start --fresh, built, to its summary',
    'median ms': Math.round(median(startBuilt)),
    runs: startBuilt.map(Math.round).join(' '),
    ratio: Number((median(startBuilt) / bare).toFixed(1)),
    goal: '',
  },
  {
    process: 'npm start in the checkout after npm install, to its summary',
    'median ms': Math.round(median(startSources)),
    runs: startSources.map(Math.round).join(' '),
    ratio: Number((median(startSources) / bare).toFixed(1)),
    goal: `≤ ${GOALS.startMs} ms: ${met(median(startSources) <= GOALS.startMs)}`,
  },
];
const memRows = mem.map((m) => ({
  process: m.label,
  'idle MB': mb(m.idle),
  [`after ${DURATION_S} s ingest MB`]: mb(m.afterIngest),
  'webhooks acked': m.acked,
  goal: m.label.startsWith('serve')
    ? `idle ≤ ${GOALS.idleMb}, after ≤ ${GOALS.ingestMb}: ${met(mb(m.idle) <= GOALS.idleMb && mb(m.afterIngest) <= GOALS.ingestMb)}`
    : '',
}));
const loads = `load average ${loadBefore} before, ${loadAfterStarts} after the starts, ${loadEnd} at the end`;
const tables = [
  { title: `Production tree (the image's, from the Dockerfile)`, rows: treeRows },
  { title: `Cold start to the first /healthz 200 (medians of ${RUNS}; ${loads})`, rows: startRows },
  {
    title: `Resident memory (idle after ${IDLE_S} s; after a ${DURATION_S} s ingest at ${CONNECTIONS} connections)`,
    rows: memRows,
  },
];
for (const t of tables) printTable(t.title, t.rows);
const chart = [{ label: 'serve cold start', ours: Math.round(cold), baseline: Math.round(bare), unit: 'ms' }];
const file = writeResults('footprint', {
  quick: QUICK,
  runs: RUNS,
  idleSeconds: IDLE_S,
  durationSeconds: DURATION_S,
  connections: CONNECTIONS,
  loadAverage: { before: loadBefore, afterStarts: loadAfterStarts, end: loadEnd },
  tables,
  chart,
  raw: { modules, dist, packages, serveMs, bareMs, startBuilt, startSources, memory: mem },
});
process.stdout.write(`\n${file}\n`);
