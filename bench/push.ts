/**
 * Push benchmark: the worker pushing ERP items to an emulated WMS in its own process,
 * against same-run baselines, in four kinds of run:
 *   d. zero latency, unlimited capacity (SQLite, and Postgres when one answers): 10,000
 *      products, 200 delivery points and 2,000 documents (3 lines each) vs a bare client loop
 *      (64 in flight, products only);
 *   a. a WMS answering in 50 ms with 64 calls at once, no rate limit: products vs the capacity
 *      bound 64 / 0.05 s = 1,280 items/s, the worker starting at the default concurrency (8);
 *   b. the same WMS with a rate limit of 200 calls/s (burst 20): vs 200 items/s, counting 429s;
 *   c. a and b again with two `wms-sync worker` processes on Postgres: together within the same
 *      limits, the rate-limited run still under 2 % 429s.
 * Prints one table with ratios and writes bench/results/push.json (`tables`, `chart`).
 * The Postgres rows (d on Postgres, c) run on --database-url, else on the benches' Postgres
 * (BENCH_DATABASE_URL, TEST_DATABASE_URL or the local test database) when it answers, so
 * `npm run bench` measures every goal; --no-postgres leaves them out.
 *   npm run bench:push [-- --quick] [-- --database-url postgres://…] [-- --no-postgres] [-- --only d,a,b,c]
 */
import { parseArgs } from 'node:util';
import { BENCH_PG_URL, postgresAnswers } from './lib/postgres.js';
import { printTable, type Row, writeResults } from './lib/report.js';
import { type RunResult, runWmsSync } from './push-run.js';
import { bareLoop, type Capacity, document, point, product, startWms } from './push-wms.js';

const { values: knobs } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    products: { type: 'string' },
    documents: { type: 'string' },
    points: { type: 'string' },
    'capacity-items': { type: 'string' },
    'rate-items': { type: 'string' },
    'database-url': { type: 'string' },
    'no-postgres': { type: 'boolean', default: false },
    only: { type: 'string', default: 'd,a,b,c' },
  },
});
const quick = knobs.quick;
const num = (v: string | undefined, full: number, short: number) => Number(v ?? (quick ? short : full));
const PRODUCTS = num(knobs.products, 10_000, 2_000);
const DOCUMENTS = num(knobs.documents, 2_000, 400);
const POINTS = num(knobs.points, 200, 50);
const CAPACITY_ITEMS = num(knobs['capacity-items'], 16_000, 4_000);
const RATE_ITEMS = num(knobs['rate-items'], 4_000, 1_200);
const PG = knobs['database-url'] ?? (!knobs['no-postgres'] && (await postgresAnswers()) ? BENCH_PG_URL : undefined);
const only = new Set(knobs.only.split(','));

const LATENCY: Capacity = { latencyMs: 50, concurrency: 64 };
const RATE: Capacity = { ...LATENCY, ratePerSecond: 200, burst: 20 };
const BOUND_LATENCY = 64 / 0.05;
const BOUND_RATE = 200;

const wms = await startWms();
const rows: Row[] = [];
const chart: { label: string; ours: number; baseline: number; unit: string }[] = [];
const goals: Record<string, boolean> = {};
let tenantSeq = 0;

const products = (t: string, n: number): unknown[] => Array.from({ length: n }, (_, i) => product(t, i));

function row(
  scenario: string,
  ours: RunResult,
  baselineName: string,
  baselineRate: number,
  extra: { limited?: number; calls?: number; goal?: string; met?: boolean } = {},
) {
  const rate = ours.items / ours.seconds;
  const r: Row = {
    scenario,
    items: ours.items,
    seconds: Number(ours.seconds.toFixed(2)),
    'items/s': Math.round(rate),
    baseline: baselineName,
    'baseline items/s': Math.round(baselineRate),
    ratio: Number((rate / baselineRate).toFixed(2)),
    '429 share': extra.calls ? `${(((extra.limited ?? 0) / extra.calls) * 100).toFixed(2)} %` : '-',
    synced: `${ours.synced}/${ours.items}`,
    goal: extra.goal ?? '-',
    met: extra.met === undefined ? '-' : extra.met ? 'yes' : 'NO',
  };
  rows.push(r);
  chart.push({ label: scenario, ours: Math.round(rate), baseline: Math.round(baselineRate), unit: 'items/s' });
  console.log(
    `${scenario}: ${Math.round(rate)} items/s (${r.ratio}× ${baselineName}), 429 share ${r['429 share']}, ${r.synced} synced`,
  );
}

/** Runs wms-sync against a fresh tenant with this capacity; returns the run and the tenant's 429 counters. */
async function capacityRun(
  label: string,
  capacity: Capacity,
  n: number,
  databaseUrl: string | undefined,
  processes: number,
) {
  const t = `${label}${++tenantSeq}`;
  const creds = await wms.tenant(t, capacity);
  const ours = await runWmsSync({ wms, creds, items: [['products', products(t, n)]], databaseUrl, processes });
  const stats = (await wms.capacity(t))?.stats ?? { admitted: 0, limited: 0 };
  return { ours, limited: stats.limited, calls: stats.admitted + stats.limited };
}

try {
  console.log(`emulator at ${wms.url}${quick ? ' (quick)' : ''}`);
  if (!PG) console.log('Postgres not reachable (or --no-postgres): the rows d on Postgres and c are left out.');
  if (only.has('d')) {
    for (const databaseUrl of [undefined, ...(PG ? [PG] : [])]) {
      const db = databaseUrl ? 'Postgres' : 'SQLite';
      const bare = await bareLoop(wms, `bare${++tenantSeq}`, Math.min(4000, PRODUCTS), 64);
      const t = `sync${++tenantSeq}`;
      const creds = await wms.tenant(t);
      const items: [import('../src/push/entities.js').IntakeKind, unknown[]][] = [
        ['products', products(t, PRODUCTS)],
        ['delivery-points', Array.from({ length: POINTS }, (_, i) => point(t, i))],
        ['documents', Array.from({ length: DOCUMENTS }, (_, i) => document(t, i, PRODUCTS, POINTS))],
      ];
      await wms.resetCounts();
      const ours = await runWmsSync({ wms, creds, items, databaseUrl, processes: 0 });
      const counts = await wms.counts();
      const rate = ours.items / ours.seconds;
      goals[`d ${db} >= 1000 items/s`] = rate >= 1000 && ours.synced === ours.items;
      row(`d. no latency, unlimited, ${db}, 1 process`, ours, 'bare loop, 64 in flight', bare.items / bare.seconds, {
        goal: '>= 1,000 items/s',
        met: goals[`d ${db} >= 1000 items/s`],
      });
      console.log(`   WMS calls per item ${(counts.api / ours.items).toFixed(3)}, token requests ${counts.token}`);
    }
  }
  let bareLatency: number | undefined;
  const latencyBaseline = async () => {
    if (bareLatency === undefined) {
      const bare = await bareLoop(wms, `bare${++tenantSeq}`, Math.min(4000, CAPACITY_ITEMS), 64, LATENCY);
      bareLatency = bare.items / bare.seconds;
      console.log(`bare loop, 64 in flight, 50 ms WMS: ${Math.round(bareLatency)} items/s (bound ${BOUND_LATENCY})`);
    }
    return bareLatency;
  };
  const runA = async (databaseUrl: string | undefined, processes: number, name: string) => {
    await latencyBaseline();
    const r = await capacityRun('lat', LATENCY, CAPACITY_ITEMS, databaseUrl, processes);
    const rate = r.ours.items / r.ours.seconds;
    const met = rate >= 0.8 * BOUND_LATENCY && rate <= BOUND_LATENCY * 1.02 && r.ours.synced === r.ours.items;
    goals[`${name} >= 80% of 1280`] = met;
    row(name, r.ours, 'capacity bound 64 / 50 ms', BOUND_LATENCY, { ...r, goal: '>= 0.80 of the bound', met });
    if (r.ours.limit !== undefined) console.log(`   limit at the end: ${r.ours.limit}`);
  };
  const runB = async (databaseUrl: string | undefined, processes: number, name: string) => {
    const r = await capacityRun('rate', RATE, RATE_ITEMS, databaseUrl, processes);
    const rate = r.ours.items / r.ours.seconds;
    const share = r.calls ? r.limited / r.calls : 0;
    const met = rate >= 0.9 * BOUND_RATE && share < 0.02 && r.ours.synced === r.ours.items;
    goals[`${name} >= 90% of 200, < 2% 429`] = met;
    row(name, r.ours, 'rate limit 200/s', BOUND_RATE, { ...r, goal: '>= 0.90 of the rate, < 2 % 429', met });
    if (r.ours.limit !== undefined) console.log(`   limit at the end: ${r.ours.limit}`);
  };
  if (only.has('a')) await runA(undefined, 0, 'a. 50 ms, 64 at once, SQLite, 1 process');
  if (only.has('b')) await runB(undefined, 0, 'b. 50 ms, 200/s, SQLite, 1 process');
  if (only.has('c') && PG) {
    await runA(PG, 2, 'c. 50 ms, 64 at once, Postgres, 2 worker processes');
    await runB(PG, 2, 'c. 50 ms, 200/s, Postgres, 2 worker processes');
  }

  const title = 'bench:push: items pushed to the emulated WMS (own process) per second, vs same-run baselines';
  printTable(title, rows);
  if (bareLatency !== undefined)
    console.log(`\nbare client loop against the 50 ms WMS (64 in flight): ${Math.round(bareLatency)} items/s`);
  console.log('');
  for (const [goal, met] of Object.entries(goals)) console.log(`goal ${goal}: ${met ? 'met' : 'MISSED'}`);
  const file = writeResults('push', {
    quick,
    knobs: { PRODUCTS, POINTS, DOCUMENTS, CAPACITY_ITEMS, RATE_ITEMS, postgres: Boolean(PG) },
    tables: [{ title, rows }],
    chart,
    bareLatencyItemsPerSecond: bareLatency,
    goals,
  });
  console.log(`results: ${file}`);
} finally {
  wms.stop();
}
