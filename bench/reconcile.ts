/**
 * Reconciliation benchmark: 100,000 product/lot stock rows by default (90,000 products, one in
 * nine with two lots) in the emulator, in its own process. The service's ledger has learnt every
 * row, one in 100 one unit short (1,000 drifts to find). Both sides are generated a product at a
 * time (the emulator in one transaction, the ledger 5,000 movements at a time), so the bench
 * itself holds no row set either. Measured, each step in a fresh process:
 *   - baseline: the raw endpoint-7 calls alone (token, endpoint 6, batches of RECONCILE_BATCH_SIZE,
 *     RECONCILE_PARALLELISM in flight, JSON parsed), without comparison nor persistence;
 *   - first run: no baselines yet, every row compared with the ledger; the drifts are rechecked
 *     after the settle window, reported, sent to the feed, and every row becomes a baseline;
 *   - second run: steady state, nothing moved since: reads and comparisons only.
 * Reports seconds, rows/s, WMS requests (counted by the emulator), peak RSS and peak V8 heap per
 * step; with several sizes (`--rows 100000,300000,1000000`) each size in turn, to show memory flat.
 * `--max-old-space-mb N` runs the measured steps with NODE_OPTIONS=--max-old-space-size=N.
 *   npm run bench:reconcile [-- --rows 100000 --batch 100 --parallelism 4 --settle 1 --drift-every 100 --database-url postgres://… --quick]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { tempDir } from '../test/support/tmp.js';
import { GOAL as GOALS } from './lib/goals.js';
import { quick } from './lib/quick.js';
import { printTable, type Row, writeResults } from './lib/report.js';
import { rowCount } from './reconcile/data.js';

const QUICK = quick({ rows: '10000' });
const { values: knobs } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    products: { type: 'string' },
    batch: { type: 'string', default: '100' },
    parallelism: { type: 'string', default: '4' },
    settle: { type: 'string', default: '1' },
    'drift-every': { type: 'string', default: '100' },
    'database-url': { type: 'string' },
    'max-old-space-mb': { type: 'string' },
  },
});
/** Products for about `rows` rows (one product in nine has two lots). */
const productsFor = (rows: number) => Math.round((rows * 9) / 10);
const SIZES = knobs.products ? [Number(knobs.products)] : knobs.rows.split(',').map((r) => productsFor(Number(r)));
const DRIFT_EVERY = Number(knobs['drift-every']);
/** The goal for a million rows, on either store (the one docs/benchmarks.md shows). */
const GOAL = { rows: 1_000_000, ...GOALS.reconcile };
const here = import.meta.dirname;

/** Starts a TypeScript file in its own Node process; resolves with its first stdout line, parsed. */
function step<T>(
  file: string,
  args: string[],
  env: Record<string, string> = {},
  keep = false,
): Promise<{ value: T; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'reconcile', file), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve({ value: JSON.parse(line) as T, stop: () => child.kill('SIGTERM') }),
    );
    child.once('exit', (code) => {
      if (!keep && code !== 0) reject(new Error(`${file} ${args.join(' ')} exited with ${code}`));
      if (keep) reject(new Error(`${file} exited with ${code}`));
    });
  });
}

const databaseUrl = knobs['database-url'];
const store = databaseUrl ? 'Postgres' : 'SQLite';
const admin = async (sql: string) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
};

interface Measured {
  seconds: number;
  rows: number;
  requests?: number;
  maxRssMB: number;
  maxHeapTotalMB?: number;
  status?: string;
  drift?: number;
  rechecked?: number;
  reason?: string | null;
  wmsRequests: number;
  tokens: number;
}

/** One size: the emulator seeded, the ledger seeded, then the raw baseline and two runs. */
async function measureSize(products: number) {
  console.log(`seeding the emulator with ${rowCount(products).toLocaleString()} product/lot rows…`);
  const wms = await step<{ url: string; clientId: string; clientSecret: string; rows: number }>(
    'emulator.ts',
    [String(products)],
    {},
    true,
  );
  const counts = async () =>
    (await (await fetch(`${wms.value.url}/_bench/counts`)).json()) as { token: number; codes: number; stock: number };
  const resetCounts = () => fetch(`${wms.value.url}/_bench/counts/reset`);
  const tmp = tempDir('bench-reconcile');
  const schema = `bench_reconcile_${process.pid}_${products}`;
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    DATA_DIR: tmp.dir,
    CONNECTION_NAME: 'bench',
    WMS_BASE_URL: wms.value.url,
    WMS_CLIENT_ID: wms.value.clientId,
    WMS_CLIENT_SECRET: wms.value.clientSecret,
    WEBHOOK_USERNAME: 'wms',
    WEBHOOK_PASSWORD: 'bench-password',
    ERP_API_TOKEN: 'bench-erp-token-0123456789',
    RECONCILE_BATCH_SIZE: knobs.batch,
    RECONCILE_PARALLELISM: knobs.parallelism,
    RECONCILE_SETTLE_SECONDS: knobs.settle,
    RECONCILE_CRON: 'off',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
  };
  const measuredEnv = knobs['max-old-space-mb']
    ? {
        ...env,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${knobs['max-old-space-mb']}`.trim(),
      }
    : env;
  try {
    if (databaseUrl) await admin(`CREATE SCHEMA ${schema}`);
    const seeded = await step<{ movements: number; seconds: number }>(
      'worker.ts',
      ['seed', String(products), String(DRIFT_EVERY)],
      env,
    );
    console.log(
      `service ledger: ${seeded.value.movements.toLocaleString()} movements in ${seeded.value.seconds.toFixed(1)} s (${store})`,
    );
    const measure = async (args: string[]): Promise<Measured> => {
      await resetCounts();
      const { value } = await step<Omit<Measured, 'wmsRequests' | 'tokens'>>('worker.ts', args, measuredEnv);
      const c = await counts();
      return { ...value, wmsRequests: c.codes + c.stock, tokens: c.token };
    };
    const raw = await measure(['raw']);
    const first = await measure(['run']);
    const second = await measure(['run']);
    for (const r of [first, second])
      if (r.status !== 'completed') throw new Error(`run ended ${r.status}: ${r.reason}`);
    return { products, rows: wms.value.rows, seed: seeded.value, raw, first, second };
  } finally {
    wms.stop();
    if (databaseUrl)
      await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
    tmp.remove();
  }
}

const sizes = [];
for (const products of SIZES) sizes.push(await measureSize(products));

const rate = (r: Measured) => r.rows / r.seconds;
const rows: Row[] = sizes.flatMap((s) => [
  {
    step: 'raw endpoint-7 calls (baseline)',
    rows: s.raw.rows,
    seconds: s.raw.seconds,
    'rows/s': rate(s.raw),
    'vs baseline': 1,
    'WMS requests': s.raw.wmsRequests,
    drift: '-',
    'peak RSS MB': s.raw.maxRssMB,
    'peak heap MB': s.raw.maxHeapTotalMB ?? '-',
  },
  {
    step: `first run (no baselines, settle ${knobs.settle} s)`,
    rows: s.first.rows,
    seconds: s.first.seconds,
    'rows/s': rate(s.first),
    'vs baseline': rate(s.first) / rate(s.raw),
    'WMS requests': s.first.wmsRequests,
    drift: s.first.drift!,
    'peak RSS MB': s.first.maxRssMB,
    'peak heap MB': s.first.maxHeapTotalMB ?? '-',
  },
  {
    step: 'second run (steady state)',
    rows: s.second.rows,
    seconds: s.second.seconds,
    'rows/s': rate(s.second),
    'vs baseline': rate(s.second) / rate(s.raw),
    'WMS requests': s.second.wmsRequests,
    drift: s.second.drift!,
    'peak RSS MB': s.second.maxRssMB,
    'peak heap MB': s.second.maxHeapTotalMB ?? '-',
  },
]);
const heapNote = knobs['max-old-space-mb']
  ? `, measured steps with --max-old-space-size=${knobs['max-old-space-mb']}`
  : ", Node's default heap sizing";
const title = `Reconciliation, ${store}: batches of ${knobs.batch}, ${knobs.parallelism} in flight, one row in ${DRIFT_EVERY} drifted${heapNote}`;
printTable(title, rows);
const chart = sizes.flatMap((s) => [
  {
    label: `first run, ${s.rows.toLocaleString('en-US')} rows`,
    ours: rate(s.first),
    baseline: rate(s.raw),
    unit: 'rows/s',
  },
  {
    label: `second run, ${s.rows.toLocaleString('en-US')} rows`,
    ours: rate(s.second),
    baseline: rate(s.raw),
    unit: 'rows/s',
  },
  {
    label: `peak RSS, first run, ${s.rows.toLocaleString('en-US')} rows`,
    ours: s.first.maxRssMB,
    baseline: s.raw.maxRssMB,
    unit: 'MB',
  },
]);
const big = sizes.filter((s) => s.rows >= GOAL.rows);
const goal =
  big.length === 0
    ? null
    : big.every((s) => [s.first, s.second].every((r) => r.seconds < GOAL.seconds && r.maxRssMB < GOAL.rssMB));
console.log(
  `\ngoal (${GOAL.rows.toLocaleString('en-US')} rows: each run under ${GOAL.seconds} s and ${GOAL.rssMB} MB RSS): ${goal === null ? 'not measured at this size' : goal ? 'met' : 'NOT met'}`,
);
const file = writeResults(databaseUrl ? 'reconcile-pg' : 'reconcile', {
  quick: QUICK,
  knobs: {
    sizes: sizes.map((s) => s.rows),
    batch: Number(knobs.batch),
    parallelism: Number(knobs.parallelism),
    settleSeconds: Number(knobs.settle),
    driftEvery: DRIFT_EVERY,
    database: databaseUrl ? 'postgres' : 'sqlite',
    maxOldSpaceMB: knobs['max-old-space-mb'] ? Number(knobs['max-old-space-mb']) : null,
  },
  sizes,
  goalMet: goal,
  tables: [{ title, rows }],
  chart,
});
console.log(`results: ${file}`);
