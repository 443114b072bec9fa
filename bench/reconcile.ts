/**
 * Reconciliation benchmark: 100,000 product/lot stock rows (90,000 products, one in nine with two
 * lots) in the emulator, in its own process. The service's ledger has learnt every row, one in
 * 100 one unit short (1,000 drifts to find). Measured, each step in a fresh process:
 *   - baseline: the raw endpoint-7 calls alone (token, endpoint 6, batches of RECONCILE_BATCH_SIZE,
 *     RECONCILE_PARALLELISM in flight, JSON parsed), without comparison nor persistence;
 *   - first run: no baselines yet, every row compared with the ledger; the drifts are rechecked
 *     after the settle window, reported, sent to the feed, and every row becomes a baseline;
 *   - second run: steady state, nothing moved since: reads and comparisons only.
 * Reports seconds, rows/s, WMS requests (counted by the emulator) and peak RSS per step.
 *   npm run bench:reconcile [-- --products 90000 --batch 100 --parallelism 4 --settle 1 --drift-every 100 --database-url postgres://…]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { tempDir } from '../test/support/tmp.js';
import { printTable, writeResults } from './lib/report.js';
import { rowCount } from './reconcile/data.js';

const { values: knobs } = parseArgs({
  options: {
    products: { type: 'string', default: '90000' },
    batch: { type: 'string', default: '100' },
    parallelism: { type: 'string', default: '4' },
    settle: { type: 'string', default: '1' },
    'drift-every': { type: 'string', default: '100' },
    'database-url': { type: 'string' },
  },
});
const PRODUCTS = Number(knobs.products);
const DRIFT_EVERY = Number(knobs['drift-every']);
const here = import.meta.dirname;

/** Starts a TypeScript file in its own Node process; resolves with its first stdout line, parsed. */
function step<T>(file: string, args: string[], env: Record<string, string> = {}, keep = false): Promise<{ value: T; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'reconcile', file), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ value: JSON.parse(line) as T, stop: () => child.kill('SIGTERM') }));
    child.once('exit', (code) => {
      if (!keep && code !== 0) reject(new Error(`${file} ${args.join(' ')} exited with ${code}`));
      if (keep) reject(new Error(`${file} exited with ${code}`));
    });
  });
}

console.log(`seeding the emulator with ${rowCount(PRODUCTS).toLocaleString()} product/lot rows…`);
const wms = await step<{ url: string; clientId: string; clientSecret: string; rows: number }>('emulator.ts', [String(PRODUCTS)], {}, true);
const counts = async () => (await (await fetch(`${wms.value.url}/_bench/counts`)).json()) as { token: number; codes: number; stock: number };
const resetCounts = () => fetch(`${wms.value.url}/_bench/counts/reset`);

const tmp = tempDir('bench-reconcile');
const schema = `bench_reconcile_${process.pid}`;
const databaseUrl = knobs['database-url'];
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
  status?: string;
  drift?: number;
  rechecked?: number;
  reason?: string | null;
}

try {
  if (databaseUrl) await admin(`CREATE SCHEMA ${schema}`);
  const seeded = await step<{ movements: number; seconds: number }>('worker.ts', ['seed', String(PRODUCTS), String(DRIFT_EVERY)], env);
  console.log(`service ledger: ${seeded.value.movements.toLocaleString()} movements in ${seeded.value.seconds.toFixed(1)} s (${databaseUrl ? 'Postgres' : 'SQLite'})`);

  const measure = async (args: string[]) => {
    await resetCounts();
    const { value } = await step<Measured>('worker.ts', args, env);
    const c = await counts();
    return { ...value, wmsRequests: c.codes + c.stock, tokens: c.token };
  };
  const raw = await measure(['raw']);
  const first = await measure(['run']);
  const second = await measure(['run']);
  for (const r of [first, second]) if (r.status !== 'completed') throw new Error(`run ended ${r.status}: ${r.reason}`);

  const rate = (r: Measured) => r.rows / r.seconds;
  const rows = [
    { step: 'raw endpoint-7 calls (baseline)', rows: raw.rows, seconds: raw.seconds, 'rows/s': rate(raw), 'vs baseline': 1, requests: raw.wmsRequests, drift: '-', 'peak RSS MB': raw.maxRssMB },
    { step: `first run (no baselines, ${first.drift} drifts, settle ${knobs.settle} s)`, rows: first.rows, seconds: first.seconds, 'rows/s': rate(first), 'vs baseline': rate(first) / rate(raw), requests: first.wmsRequests, drift: first.drift!, 'peak RSS MB': first.maxRssMB },
    { step: 'second run (steady state)', rows: second.rows, seconds: second.seconds, 'rows/s': rate(second), 'vs baseline': rate(second) / rate(raw), requests: second.wmsRequests, drift: second.drift!, 'peak RSS MB': second.maxRssMB },
  ];
  printTable(
    `Reconciliation of ${wms.value.rows.toLocaleString()} product/lot rows (${PRODUCTS.toLocaleString()} products), batches of ${knobs.batch}, ${knobs.parallelism} in flight, ${databaseUrl ? 'Postgres' : 'SQLite'}`,
    rows,
  );
  const goal = [first, second].every((r) => r.seconds < 60 && r.maxRssMB < 300);
  console.log(`\ngoal (each run under 60 s and 300 MB RSS): ${goal ? 'met' : 'NOT met'}`);
  const file = writeResults(databaseUrl ? 'reconcile-pg' : 'reconcile', {
    knobs: { products: PRODUCTS, rows: wms.value.rows, batch: Number(knobs.batch), parallelism: Number(knobs.parallelism), settleSeconds: Number(knobs.settle), driftEvery: DRIFT_EVERY, database: databaseUrl ? 'postgres' : 'sqlite' },
    seed: seeded.value,
    raw,
    first,
    second,
    goalMet: goal,
  });
  console.log(`results: ${file}`);
} finally {
  wms.stop();
  if (databaseUrl) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_boss CASCADE`);
  tmp.remove();
}
