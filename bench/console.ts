/**
 * Console benchmark: render time of each list page with 100,000 inbound events and 100,000
 * WMS pushes in the store (plus 100,000 feed events and 1,000 reconciliation runs), on
 * SQLite and on Postgres, against a same-run baseline: the JSON admin API answering the same
 * query. `wms-sync serve` runs as users run it (worker included, defaults) in its own process;
 * this process sends one request at a time (render latency, not throughput), half of them for the
 * first page and half with a keyset cursor anywhere in the data, console and API interleaved.
 *   npm run bench:console [-- --events 100000 --records 100000 --feed 100000 --runs 1000 --requests 300
 *                            --database-url postgres://postgres@127.0.0.1:5432/test --backends sqlite,postgres]
 *   npm run bench:console -- --quick   (5,000 rows of each, 60 requests a page: a smoke run, not the figures)
 * Goal: p95 < 100 ms for every console list page, on both backends (at the full sizes).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/lib/config.js';
import { openStore } from '../src/store/index.js';
import { tempDir } from '../test/support/tmp.js';
import { type Seeded, seed } from './console/seed.js';
import { printTable, type Row, writeResults } from './lib/report.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    events: { type: 'string' },
    records: { type: 'string' },
    feed: { type: 'string' },
    runs: { type: 'string' },
    requests: { type: 'string' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    backends: { type: 'string', default: 'sqlite,postgres' },
  },
});
const QUICK = args.quick;
// --quick: the same pages on a small data set, for `npm run bench -- --quick`; explicit sizes still win.
const knobs = {
  quick: QUICK,
  events: args.events ?? (QUICK ? '5000' : '100000'),
  records: args.records ?? (QUICK ? '5000' : '100000'),
  feed: args.feed ?? (QUICK ? '5000' : '100000'),
  runs: args.runs ?? (QUICK ? '100' : '1000'),
  requests: args.requests ?? (QUICK ? '60' : '300'),
  'database-url': args['database-url'],
  backends: args.backends,
};
const REQUESTS = Number(knobs.requests);
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const CONNECTION = 'bench';
const PAGE = 50;
const bin = fileURLToPath(new URL('../bin/wms-sync.js', import.meta.url));

interface Scenario {
  page: string;
  console: (cursor: number | undefined) => string;
  api: (cursor: number | undefined) => string;
  cursors: (s: Seeded) => [number, number];
}

const c = `/console/connections/${CONNECTION}`;
const a = `/admin/v1/connections/${CONNECTION}`;
const q = (name: string, v: number | undefined) => (v === undefined ? '' : `&${name}=${v}`);
/** The list pages of the console and the admin API query each one calls. */
const SCENARIOS: Scenario[] = [
  {
    page: 'inbound events, newest first',
    console: (b) => `${c}/events?${q('before', b).slice(1)}`,
    api: (b) => `/admin/v1/events?connection=${CONNECTION}&limit=${PAGE}${q('cursor', b)}`,
    cursors: (s) => s.ids.events,
  },
  {
    page: 'inbound events: quarantined',
    console: (b) => `${c}/events?status=quarantined${q('before', b)}`,
    api: (b) => `/admin/v1/events?connection=${CONNECTION}&status=quarantined&limit=${PAGE}${q('cursor', b)}`,
    cursors: (s) => s.ids.events,
  },
  {
    page: 'inbound events: failed regularizations',
    console: (b) => `${c}/events?kind=stock-regularization&status=failed${q('before', b)}`,
    api: (b) =>
      `/admin/v1/events?connection=${CONNECTION}&kind=stock-regularization&status=failed&limit=${PAGE}${q('cursor', b)}`,
    cursors: (s) => s.ids.events,
  },
  {
    page: 'inbound events: one day',
    console: (b) => `${c}/events?${day()}${q('before', b)}`,
    api: (b) => `/admin/v1/events?connection=${CONNECTION}&${day('received')}&limit=${PAGE}${q('cursor', b)}`,
    cursors: (s) => s.ids.events,
  },
  // The "cursor" picks the business code (one event each): closingDocumentCode CD-<n>.
  {
    page: 'inbound events: by business code',
    console: (b) => `${c}/events?code=CD-${b ?? 0}`,
    api: (b) => `/admin/v1/events?connection=${CONNECTION}&code=CD-${b ?? 0}&limit=${PAGE}`,
    cursors: (s) => [0, s.events - 1],
  },
  {
    page: 'pushes: products, any state',
    console: (b) => `${c}/pushes?entity=product${q('before', b)}`,
    api: (b) => `${a}/pushes?entity=product&limit=${PAGE}${q('before', b)}`,
    cursors: (s) => s.ids.records,
  },
  {
    page: 'pushes: failed products',
    console: (b) => `${c}/pushes?entity=product&state=failed${q('before', b)}`,
    api: (b) => `${a}/pushes?entity=product&state=failed&limit=${PAGE}${q('before', b)}`,
    cursors: (s) => s.ids.records,
  },
  {
    page: 'pushes: pending documents',
    console: (b) => `${c}/pushes?entity=document&state=pending${q('before', b)}`,
    api: (b) => `${a}/pushes?entity=document&state=pending&limit=${PAGE}${q('before', b)}`,
    cursors: (s) => s.ids.records,
  },
  {
    page: 'reconciliation runs',
    console: (b) => `${c}/reconciliations?limit=${PAGE}${q('before', b)}`,
    api: (b) => `${a}/reconciliations?limit=${PAGE}${q('before', b)}`,
    cursors: (s) => s.ids.runs,
  },
  {
    page: 'ERP feed, newest first',
    console: (b) => `${c}/feed?limit=${PAGE}${q('before', b)}`,
    api: (b) => `${a}/feed?limit=${PAGE}${q('before', b)}`,
    cursors: (s) => s.ids.feedEntries,
  },
  {
    page: 'ERP feed after a cursor',
    console: (b) => `${c}/feed?limit=${PAGE}&after=${b ?? 0}`,
    api: (b) => `${a}/feed?limit=${PAGE}&after=${b ?? 0}`,
    cursors: (s) => s.ids.feedEntries,
  },
];

function serve(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = /"url":"(http:\/\/[^"]+)"/.exec(line)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: ADMIN_TOKEN }),
  });
  const cookie = res.headers
    .getSetCookie()
    .find((x) => x.startsWith('wms_console_session='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie;
}

async function timedGet(url: string, headers: Record<string, string>, type: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 200 || !res.headers.get('content-type')?.includes(type))
    throw new Error(`GET ${url}: ${res.status}`);
  return ms;
}

let seededDay: [string, string] = ['', ''];
/** The seeded data's middle day, as the console's (`from`/`to`) or the admin API's (`receivedFrom`/`receivedTo`) filter. */
const day = (prefix?: 'received') => {
  const [from, to] = seededDay.map(encodeURIComponent);
  return prefix ? `receivedFrom=${from}&receivedTo=${to}` : `from=${from}&to=${to}`;
};

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(url: string, cookie: string, s: Seeded, scenario: Scenario) {
  const console: number[] = [];
  const api: number[] = [];
  const [lo, hi] = scenario.cursors(s);
  for (let i = 0; i < REQUESTS + 20; i++) {
    // Half first pages, half a cursor anywhere in the data: both ask the same page.
    const cursor = i % 2 === 0 ? undefined : lo + Math.floor(Math.random() * (hi - lo + 1));
    const pageMs = await timedGet(`${url}${scenario.console(cursor)}`, { cookie }, 'text/html');
    const apiMs = await timedGet(
      `${url}${scenario.api(cursor)}`,
      { authorization: `Bearer ${ADMIN_TOKEN}` },
      'application/json',
    );
    if (i >= 20) {
      console.push(pageMs);
      api.push(apiMs);
    }
  }
  console.sort((x, y) => x - y);
  api.sort((x, y) => x - y);
  return {
    console: { p50: pct(console, 50), p95: pct(console, 95), p99: pct(console, 99) },
    api: { p50: pct(api, 50), p95: pct(api, 95), p99: pct(api, 99) },
  };
}

async function runBackend(backend: 'sqlite' | 'postgres') {
  const tmp = tempDir(`bench-console-${backend}`);
  const schema = `bench_console_${process.pid}`;
  const url = knobs['database-url'];
  const pgAdmin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  const env: Record<string, string> = {
    LOG_LEVEL: 'info',
    DATA_DIR: tmp.dir,
    ADMIN_TOKEN,
    CONNECTION_NAME: CONNECTION,
    WMS_BASE_URL: 'http://127.0.0.1:9',
    WMS_CLIENT_ID: 'bench',
    WMS_CLIENT_SECRET: 'bench-secret',
    WEBHOOK_USERNAME: 'wms',
    WEBHOOK_PASSWORD: 'bench-password',
    ERP_API_TOKEN: 'bench-erp-token-0123456789',
    RECONCILE_CRON: 'off',
    ...(backend === 'postgres' ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {}),
  };
  let child: ChildProcess | undefined;
  try {
    if (backend === 'postgres') await pgAdmin(`CREATE SCHEMA ${schema}`);
    console.log(`\n${backend}: seeding through the store's repos…`);
    const store = openStore(loadConfig(env).database);
    await store.migrate();
    const seeded = await seed(
      store,
      CONNECTION,
      {
        events: Number(knobs.events),
        records: Number(knobs.records),
        feedEntries: Number(knobs.feed),
        runs: Number(knobs.runs),
      },
      (l) => console.log(l),
    );
    await store.close();
    console.log(`  seeded in ${seeded.seconds.toFixed(1)} s`);
    seededDay = seeded.day;
    // What autovacuum does to tables that grew by 100,000 rows: statistics for the planner, and the
    // visibility map that lets a count read an index alone (the events list's total).
    if (backend === 'postgres')
      await pgAdmin(
        `VACUUM ANALYZE ${schema}.inbound_events, ${schema}.wms_pushes, ${schema}.feed_entries, ${schema}.reconciliation_runs`,
      );
    const served = await serve(env);
    child = served.child;
    const cookie = await signIn(served.url);
    const rows = [];
    for (const scenario of SCENARIOS) {
      const m = await measure(served.url, cookie, seeded, scenario);
      rows.push({ backend, page: scenario.page, ...m, goalMet: m.console.p95 < 100 });
      console.log(
        `  ${scenario.page}: console p95 ${m.console.p95.toFixed(1)} ms, JSON API p95 ${m.api.p95.toFixed(1)} ms`,
      );
    }
    return { seeded, rows };
  } finally {
    child?.kill('SIGTERM');
    if (child) await new Promise((r) => child!.once('exit', r));
    if (backend === 'postgres')
      await pgAdmin(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`).catch(
        () => undefined,
      );
    tmp.remove();
  }
}

const results = [];
for (const backend of knobs.backends.split(',')) {
  if (backend !== 'sqlite' && backend !== 'postgres')
    throw new Error(`--backends: sqlite and/or postgres, not "${backend}"`);
  results.push(await runBackend(backend));
}
const table: Row[] = results.flatMap((r) =>
  r.rows.map((row) => ({
    backend: row.backend,
    'list page': row.page,
    'JSON API p95 ms': row.api.p95,
    'console p50 ms': row.console.p50,
    'console p95 ms': row.console.p95,
    'console p99 ms': row.console.p99,
    'p95 vs API': row.console.p95 / row.api.p95,
    'p95 < 100 ms': row.goalMet ? 'yes' : 'NO',
  })),
);
const title = `Console list pages: ${REQUESTS} requests each (half first pages, half a random keyset cursor), one at a time, wms-sync serve in its own process${QUICK ? ' (quick: small data set)' : ''}`;
printTable(title, table);
const goal = results.every((r) => r.rows.every((row) => row.goalMet));
console.log(
  `\ngoal (every console list page p95 < 100 ms, both backends): ${goal ? 'met' : 'NOT met'}${QUICK ? ' (quick run: not the figures)' : ''}`,
);
const chart = results.flatMap((r) =>
  r.rows.map((row) => ({
    label: `${row.backend}: ${row.page}`,
    ours: row.console.p95,
    baseline: row.api.p95,
    unit: 'ms',
  })),
);
console.log(
  `results: ${writeResults('console', { quick: QUICK, knobs, results, goalMet: goal, tables: [{ title, rows: table }], chart })}`,
);
