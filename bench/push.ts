/**
 * Push benchmark: 10,000 products, 200 delivery points and 2,000 documents (3 lines each) taken
 * in through the intake and pushed by the worker to the emulator (its own process), next to two
 * baselines measured in the same run against the same emulator:
 *   - raw sequential: one token, then one fetch after the other (what a naive integration does);
 *   - raw concurrent: the same calls with WMS_MAX_CONCURRENCY in flight (the WMS's own ceiling here).
 * Reports items/s, token requests and WMS calls per item (counted by the emulator process).
 *   npm run bench:push [-- --products 10000 --documents 2000 --baseline 2000 --database-url postgres://…]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/lib/config.js';
import { connectionInputSchema, toConnectionConfig } from '../src/lib/connections.js';
import { silentLogger } from '../src/lib/logger.js';
import { openDeps } from '../src/main.js';
import { followSync, loadItems } from '../src/outbound/bulk.js';
import type { IntakeKind } from '../src/outbound/entities.js';
import { outboundJobs } from '../src/outbound/jobs.js';
import { startWorkers } from '../src/worker.js';
import { tempDir } from '../test/support/tmp.js';
import { quick } from './lib/quick.js';

const QUICK = quick({ products: '1000', documents: '200', points: '20', baseline: '500' });

const { values: knobs } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    documents: { type: 'string', default: '2000' },
    points: { type: 'string', default: '200' },
    baseline: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    'pool-size': { type: 'string', default: '10' },
    'database-url': { type: 'string' },
  },
});
const PRODUCTS = Number(knobs.products);
const DOCUMENTS = Number(knobs.documents);
const POINTS = Number(knobs.points);
const BASELINE = Number(knobs.baseline);
const CONCURRENCY = Number(knobs.concurrency);

// ---- the emulator, in a process of its own ----
const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'push-emulator.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
const wmsUrl = await new Promise<string>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once('line', resolve);
  child.once('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
});
const control = async (path: string, json: unknown) => {
  const res = await fetch(`${wmsUrl}/_emulator${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
};
const counts = async () => (await (await fetch(`${wmsUrl}/_bench/counts`)).json()) as { token: number; api: number };
const resetCounts = () => fetch(`${wmsUrl}/_bench/counts/reset`);
async function tenant(id: string) {
  await control('/tenants', { id });
  const c = await control(`/tenants/${id}/api-clients`, { name: 'bench' });
  return { clientId: c.client_id!, clientSecret: c.client_secret! };
}

// ---- the data ----
const product = (t: string, i: number) => ({
  externalCode: `${t}-P${String(i).padStart(6, '0')}`,
  description: `Benchmark product ${i}`,
  code: `${t}-SKU-${i}`,
  handlingUnit: 'UN',
  weight: 1 + (i % 7) / 10,
  withLots: i % 4 === 0,
  barcodes: [{ code: `56${String(i).padStart(11, '0')}`, type: 'GTIN' }],
  ...(i % 4 === 0 ? { lots: [{ code: `L${i}`, active: true, expirationDate: '2028-06-30' }] } : {}),
});
const point = (t: string, i: number) => ({ externalCode: `${t}-DP${i}`, active: true, name: `Client ${i}`, city: 'Lisboa', country: 'PT', types: ['CLIENT'] });
const document = (t: string, i: number) => ({
  externalCode: `${t}-SO${i}`,
  documentNumber: `SO ${i}`,
  documentType: i % 5 === 0 ? 'PURCHASE_ORDER' : 'CLIENT_EXPEDITION',
  documentDate: '2026-03-02',
  deliveryPointExternalCode: `${t}-DP${i % POINTS}`,
  lines: [0, 1, 2].map((k) => ({ lineNumber: k + 1, quantity: 1 + k, productExternalCode: `${t}-P${String((i * 3 + k) % PRODUCTS).padStart(6, '0')}` })),
});

// ---- baselines: raw calls, no store, no queue, no retries ----
async function rawToken(creds: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(`${wmsUrl}/api/external/v1/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: creds.clientId, client_secret: creds.clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function rawPush(t: string, inFlight: number): Promise<{ seconds: number; items: number }> {
  const token = await rawToken(await tenant(t));
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const productCount = Math.round(BASELINE * 0.8);
  const calls: { path: string; body: unknown }[] = [
    ...Array.from({ length: productCount }, (_, i) => ({ path: '/product', body: product(t, i) })),
    ...Array.from({ length: BASELINE - productCount }, (_, i) => ({
      path: '/document',
      body: { ...document(t, i), deliveryPointExternalCode: undefined, lines: document(t, i).lines.map((l) => ({ ...l, productExternalCode: `${t}-P${String(i % productCount).padStart(6, '0')}` })) },
    })),
  ];
  const started = performance.now();
  let next = 0;
  // Products first, then documents (they name the products): the first document waits for the last product.
  const worker = async (list: typeof calls) => {
    for (;;) {
      const call = list[next++];
      if (!call) return;
      const res = await fetch(`${wmsUrl}/api/external/v1${call.path}`, { method: 'POST', headers, body: JSON.stringify(call.body) });
      await res.arrayBuffer();
      if (res.status >= 300) throw new Error(`raw ${call.path}: ${res.status}`);
    }
  };
  const products = calls.slice(0, productCount);
  const documents = calls.slice(productCount);
  await Promise.all(Array.from({ length: inFlight }, () => worker(products)));
  next = 0;
  await Promise.all(Array.from({ length: inFlight }, () => worker(documents)));
  return { seconds: (performance.now() - started) / 1000, items: calls.length };
}

// ---- wms-sync: intake, durable jobs, pushes ----
async function wmsSync(): Promise<{ seconds: number; intakeSeconds: number; items: number; synced: number; failed: number }> {
  const creds = await tenant('sync');
  const tmp = tempDir('bench-push');
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    DATA_DIR: tmp.dir,
    WMS_MAX_CONCURRENCY: String(CONCURRENCY),
    WORKER_CONCURRENCY: '4',
    WORKER_BATCH_SIZE: '50',
    DATABASE_POOL_SIZE: knobs['pool-size'],
    QUEUE_POLL_INTERVAL_MS: '50',
    ...(knobs['database-url'] ? { DATABASE_URL: knobs['database-url'], DATABASE_SCHEMA: `bench_push_${process.pid}` } : {}),
  };
  const connection = toConnectionConfig(
    connectionInputSchema.parse({
      name: 'bench',
      wmsBaseUrl: wmsUrl,
      wmsClientId: creds.clientId,
      wmsClientSecret: creds.clientSecret,
      webhookUsername: 'wms',
      webhookPassword: 'bench-password',
      erpApiToken: 'bench-erp-token-0123456789',
    }),
  );
  if (knobs['database-url']) {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: knobs['database-url'] });
    await client.connect();
    await client.query(`CREATE SCHEMA IF NOT EXISTS bench_push_${process.pid}`);
    await client.end();
  }
  const deps = await openDeps({ ...loadConfig(env), connections: [connection] }, { logger: silentLogger() });
  try {
    await startWorkers(deps, [outboundJobs]);
    const items: [IntakeKind, unknown[]][] = [
      ['products', Array.from({ length: PRODUCTS }, (_, i) => product('sync', i))],
      ['delivery-points', Array.from({ length: POINTS }, (_, i) => point('sync', i))],
      ['documents', Array.from({ length: DOCUMENTS }, (_, i) => document('sync', i))],
    ];
    await resetCounts();
    const started = performance.now();
    const ids: number[] = [];
    for (const [kind, list] of items) {
      const load = await loadItems(deps, 'bench', kind, list.map((value, i) => ({ source: `${kind} ${i}`, value })));
      if (load.invalid.length > 0) throw new Error(`${kind}: ${JSON.stringify(load.invalid[0])}`);
      ids.push(...load.recordIds);
    }
    const intakeSeconds = (performance.now() - started) / 1000;
    const final = await followSync(deps, ids, { intervalMs: 250 });
    return { seconds: (performance.now() - started) / 1000, intakeSeconds, items: ids.length, synced: final.synced, failed: final.failed };
  } finally {
    await deps.queue.stop({ graceMs: 2000 });
    await deps.store.close();
    if (knobs['database-url']) {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: knobs['database-url'] });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS bench_push_${process.pid} CASCADE; DROP SCHEMA IF EXISTS bench_push_${process.pid}_boss CASCADE`);
      await client.end();
    }
    tmp.remove();
  }
}

try {
  console.log(`emulator at ${wmsUrl}; baselines with ${BASELINE} items, wms-sync with ${PRODUCTS + POINTS + DOCUMENTS} items…`);
  await resetCounts();
  const sequential = await rawPush('seq', 1);
  const seqCounts = await counts();
  await resetCounts();
  const concurrent = await rawPush('conc', CONCURRENCY);
  const concCounts = await counts();
  const ours = await wmsSync();
  const ourCounts = await counts();

  const rate = (r: { items: number; seconds: number }) => r.items / r.seconds;
  const rows = [
    { scenario: 'raw sequential calls (baseline)', items: sequential.items, seconds: sequential.seconds, rate: rate(sequential), tokens: seqCounts.token, callsPerItem: seqCounts.api / sequential.items },
    { scenario: `raw calls, ${CONCURRENCY} in flight`, items: concurrent.items, seconds: concurrent.seconds, rate: rate(concurrent), tokens: concCounts.token, callsPerItem: concCounts.api / concurrent.items },
    { scenario: `wms-sync intake + push jobs (${knobs['database-url'] ? 'Postgres' : 'SQLite'})`, items: ours.items, seconds: ours.seconds, rate: rate(ours), tokens: ourCounts.token, callsPerItem: ourCounts.api / ours.items },
  ];
  const base = rows[0]!.rate;
  console.log('');
  console.log('| scenario | items | seconds | items/s | vs sequential | token requests | WMS calls per item |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.scenario} | ${r.items} | ${r.seconds.toFixed(2)} | ${Math.round(r.rate)} | ${(r.rate / base).toFixed(2)}x | ${r.tokens} | ${r.callsPerItem.toFixed(3)} |`);
  }
  console.log('');
  console.log(`wms-sync: ${ours.synced} synced, ${ours.failed} failed; intake of all ${ours.items} items took ${ours.intakeSeconds.toFixed(2)} s of the ${ours.seconds.toFixed(2)} s`);
  const goals = { itemsPerSecond: rows[2]!.rate >= 500, oneToken: ourCounts.token === 1, callsPerItem: rows[2]!.callsPerItem <= 1.05, allSynced: ours.synced === ours.items };
  console.log(`goals: >= 500 items/s ${goals.itemsPerSecond ? 'met' : 'MISSED'}; 1 token request ${goals.oneToken ? 'met' : 'MISSED'}; <= 1.05 calls/item ${goals.callsPerItem ? 'met' : 'MISSED'}; all synced ${goals.allSynced ? 'yes' : 'NO'}`);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(
    join(import.meta.dirname, 'results', 'push.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, knobs: { PRODUCTS, POINTS, DOCUMENTS, BASELINE, CONCURRENCY, database: knobs['database-url'] ? 'postgres' : 'sqlite' }, rows, ours, goals, quick: QUICK, tables: [{ title: 'Push into the emulator', rows: rows.map((r) => ({ scenario: r.scenario, items: r.items, seconds: r.seconds, 'items/s': r.rate, 'vs sequential': r.rate / base, 'token requests': r.tokens, 'WMS calls per item': r.callsPerItem })) }], chart: [{ label: rows[2]!.scenario, ours: rows[2]!.rate, baseline: rows[0]!.rate, unit: 'items/s' }, { label: `${rows[1]!.scenario} (raw ceiling)`, ours: rows[2]!.rate, baseline: rows[1]!.rate, unit: 'items/s' }] }, null, 2)}\n`,
  );
} finally {
  child.kill('SIGTERM');
}
