/**
 * Emulator benchmark: criteria list queries over 100,000 products (p50/p99 per page of 20), stock
 * queries (endpoint 7) in batches of 100 products over 110,000 product/lot stock rows, and token
 * issuance per second, each next to a bare Hono baseline measured in the same run.
 *   npm run bench:emulator [-- --products 100000 --requests 400 --token-seconds 5]
 */
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { Hono } from 'hono';
import { createClient } from '../src/emulator/clients/create.js';
import { createEmulator, startEmulatorServer } from '../src/emulator/index.js';
import { createProduct } from '../src/emulator/products/create.js';
import { ensureLot } from '../src/emulator/stock/lot-rules.js';
import { addStock } from '../src/emulator/stock/store.js';
import { createTenant } from '../src/emulator/tenants/create.js';
import { quick } from './lib/quick.js';
import { type Row, writeResults } from './lib/report.js';

const QUICK = quick({ products: '5000', requests: '50', 'token-seconds': '1' });

const { values: knobs } = parseArgs({
  options: {
    products: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '400' },
    'token-seconds': { type: 'string', default: '5' },
  },
});
const PRODUCTS = Number(knobs.products);
const REQUESTS = Number(knobs.requests);
const TOKEN_SECONDS = Number(knobs['token-seconds']);

const emulator = createEmulator();
const { ctx } = emulator.state;
console.log(`seeding ${PRODUCTS.toLocaleString()} products (plus 10,000 in another tenant)…`);
const seedStarted = performance.now();
for (const [tenantId, count] of [
  ['bench', PRODUCTS],
  ['other', 10_000],
] as const) {
  const tenant = createTenant(ctx, { id: tenantId });
  ctx.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const n = String(i).padStart(6, '0');
      createProduct(
        { ...ctx, tenant },
        {
          externalCode: `P${n}`,
          description: `${['Apple', 'Banana', 'Cherry', 'Date', 'Elder'][i % 5]} product ${n}`,
          code: `SKU-${n}`,
          handlingUnit: i % 3 === 0 ? 'KG' : 'UN',
          withLots: i % 10 === 0,
          barcodes: [{ code: `56${n}${tenantId === 'bench' ? '0' : '1'}`, type: 'GTIN' }],
          ...(i % 10 === 0 ? { lots: [{ code: `L${n}`, active: true, expirationDate: '2030-01-01' }] } : {}),
        },
      );
    }
  })();
}
// Stock: every product in one location of MAIN; lot products in two lots (110,000 product/lot rows for 100,000 products).
{
  const tenant = { id: 'bench', settings: { API_WITH_LOT: false, API_WITH_EXPIRATION_DATE: false } };
  const tctx = { ...ctx, tenant };
  const { id: warehouseId } = ctx
    .sql("SELECT id FROM warehouses WHERE tenant_id = 'bench' AND code = 'MAIN'")
    .get() as { id: number };
  const ids = ctx
    .sql("SELECT id, with_lots, external_code FROM products WHERE tenant_id = 'bench' ORDER BY id")
    .all() as { id: number; with_lots: number; external_code: string }[];
  ctx.db.transaction(() => {
    for (const p of ids) {
      if (!p.with_lots) {
        addStock(tctx, { productId: p.id, lotCode: null, warehouseId, location: 'STOCK' }, 10 + (p.id % 7));
        continue;
      }
      const n = p.external_code.slice(1);
      ensureLot(tctx, p.id, `M${n}`, '2031-06-30');
      addStock(tctx, { productId: p.id, lotCode: `L${n}`, warehouseId, location: 'STOCK' }, 5);
      addStock(tctx, { productId: p.id, lotCode: `M${n}`, warehouseId, location: 'STOCK' }, 3, true);
    }
  })();
}
const seedSeconds = (performance.now() - seedStarted) / 1000;
const { n: stockRowCount } = ctx.sql("SELECT count(*) AS n FROM stock WHERE tenant_id = 'bench'").get() as {
  n: number;
};
const credentials = createClient(ctx, 'bench', { kind: 'api', name: 'bench' });

const server = await startEmulatorServer({ emulator });
const form = `client_id=${credentials.client_id}&client_secret=${encodeURIComponent(credentials.client_secret)}`;
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
const tokenResponse = (await (
  await fetch(`${server.url}/api/external/v1/auth/token`, { method: 'POST', headers: formHeaders, body: form })
).json()) as {
  access_token: string;
};
const auth = { authorization: `Bearer ${tokenResponse.access_token}` };

// Baseline: a bare Hono app on the same server stack answering a fixed page of 20 products,
// and a form-parsing POST answering a fixed token body.
const page20 = await (await fetch(`${server.url}/api/external/v1/product?size=20`, { headers: auth })).text();
const bare = new Hono();
bare.get('/list', (c) =>
  c.body(page20, 200, { 'content-type': 'application/json', 'x-total-count': String(PRODUCTS) }),
);
bare.post('/token', async (c) => {
  const body = await c.req.parseBody();
  return c.json({ access_token: String(body.client_id), token_type: 'Bearer', expires_in: 3600 });
});
let sampleAnswer = '[]'; // set below to a real endpoint 7 answer, before the baseline runs
bare.post('/stock', async (c) => {
  await c.req.json();
  return c.body(sampleAnswer, 200, { 'content-type': 'application/json' });
});
const bareServer = await new Promise<{ url: string; close: () => void }>((resolve) => {
  const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    resolve({ url: `http://127.0.0.1:${info.port}`, close: () => s.close() }),
  );
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function latency(
  url: string,
  headers: Record<string, string>,
): Promise<{ p50: number; p99: number; total: string | null }> {
  const times: number[] = [];
  let total: string | null = null;
  for (let i = 0; i < REQUESTS + 20; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    total = res.headers.get('x-total-count');
    if (i >= 20) times.push(performance.now() - started); // first 20 warm up
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), total };
}

const QUERIES: [string, string][] = [
  ['no criteria (sort id)', ''],
  ['sku.equals', 'sku.equals=SKU-054321'],
  ['id.in (5 ids)', 'id.in=10,20000,40000,60000,80000'],
  ['description.contains (scan)', 'description.contains=cherry'],
  ['skuOrDescription.contains 2 chars (scan)', 'skuOrDescription.contains=99'],
  ['skuOrDescription.contains selective (trigram)', 'skuOrDescription.contains=05432'],
  ['search.contains, every row matches (scan)', 'search.contains=product'],
  ['description.contains selective (trigram)', 'description.contains=rry%20product%200123'],
  ['barcodesCode.equals (child rows)', 'barcodesCode.equals=560543210'],
  ['lotCode.specified + sort sku desc', 'lotCode.specified=true&sort=sku,desc'],
  ['withLots.equals + id range', 'withLots.equals=false&id.greaterThan=50000&id.lessThanOrEqual=90000'],
  ['sort description asc, page 100', 'sort=description,asc&page=100'],
  ['deep page (offset 80,000)', 'page=4000'],
];

const rows: Row[] = [];
const baseline = await latency(`${bareServer.url}/list`, {});
rows.push({ query: 'baseline: bare Hono, fixed page', p50_ms: baseline.p50, p99_ms: baseline.p99, p99_ratio: 1 });
for (const [name, query] of QUERIES) {
  const m = await latency(`${server.url}/api/external/v1/product?size=20${query ? `&${query}` : ''}`, auth);
  rows.push({ query: name, total: Number(m.total), p50_ms: m.p50, p99_ms: m.p99, p99_ratio: m.p99 / baseline.p99 });
}

// Endpoint 7 in batches of 100 products (what stock reconciliation sends), over HTTP, sequential.
// Baseline: a bare Hono POST that parses the same JSON body and answers a fixed body of the same size.
let seed = 42;
const nextCode = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return `P${String(seed % PRODUCTS).padStart(6, '0')}`;
};
const batches = Array.from({ length: REQUESTS + 20 }, () =>
  Array.from({ length: 100 }, () => ({ product: nextCode() })),
);
const jsonHeaders = { ...auth, 'content-type': 'application/json' };
sampleAnswer = await (
  await fetch(`${server.url}/api/external/v1/product/stock`, {
    method: 'POST',
    headers: jsonHeaders,
    body: JSON.stringify({ products: batches[0], groupedByLot: true }),
  })
).text();

async function postLatency(
  url: string,
  headers: Record<string, string>,
  body: (i: number) => string,
): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 20; i++) {
    const started = performance.now();
    const res = await fetch(url, { method: 'POST', headers, body: body(i) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= 20) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const stockRows: Row[] = [];
const stockBaseline = await postLatency(`${bareServer.url}/stock`, { 'content-type': 'application/json' }, (i) =>
  JSON.stringify({ products: batches[i], groupedByLot: true }),
);
stockRows.push({
  query: 'baseline: bare Hono, parse body, fixed answer',
  p50_ms: stockBaseline.p50,
  p99_ms: stockBaseline.p99,
  p99_ratio: 1,
});
for (const [name, extra] of [
  ['100 products, groupedByLot', { groupedByLot: true }],
  ['100 products, one row each', {}],
  ['100 products, location filter', { location: 'STOCK' }],
] as const) {
  const m = await postLatency(`${server.url}/api/external/v1/product/stock`, jsonHeaders, (i) =>
    JSON.stringify({ products: batches[i], ...extra }),
  );
  stockRows.push({ query: name, p50_ms: m.p50, p99_ms: m.p99, p99_ratio: m.p99 / stockBaseline.p99 });
}

async function rate(url: string, headers: Record<string, string>, body: string) {
  const r = await autocannon({ url, method: 'POST', headers, body, connections: 10, duration: TOKEN_SECONDS });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { perSecond: r.requests.average, p99: r.latency.p99 };
}
const bareTokens = await rate(`${bareServer.url}/token`, formHeaders, form);
const tokens = await rate(`${server.url}/api/external/v1/auth/token`, formHeaders, form);

const fmt = (n: unknown) =>
  typeof n === 'number' ? (Number.isInteger(n) ? n.toLocaleString() : n.toFixed(2)) : String(n ?? '');
console.log(
  `\nList queries, page of 20, ${PRODUCTS.toLocaleString()} products in the tenant, ${REQUESTS} sequential requests each (HTTP, keep-alive)`,
);
console.table(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fmt(v)]))));
console.log(
  `Stock (endpoint 7), batches of 100 products, ${stockRowCount.toLocaleString()} product/lot stock rows, ${REQUESTS} sequential requests each`,
);
console.table(stockRows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fmt(v)]))));
console.log('Token issuance (autocannon, 10 connections)');
console.table([
  {
    endpoint: 'baseline: bare Hono form POST',
    per_second: fmt(bareTokens.perSecond),
    p99_ms: fmt(bareTokens.p99),
    ratio: '1.00',
  },
  {
    endpoint: 'POST /api/external/v1/auth/token',
    per_second: fmt(tokens.perSecond),
    p99_ms: fmt(tokens.p99),
    ratio: fmt(tokens.perSecond / bareTokens.perSecond),
  },
]);

const results = {
  date: new Date().toISOString(),
  node: process.version,
  products: PRODUCTS,
  seedSeconds,
  requestsPerQuery: REQUESTS,
  list: rows,
  stock: { rows: stockRowCount, batchSize: 100, queries: stockRows },
  tokens: { baseline: bareTokens, emulator: tokens, ratio: tokens.perSecond / bareTokens.perSecond },
  goals: { listP99Ms: 20, tokensPerSecond: 2000, stockBatchP99Ms: 10 },
};
const tokenRows: Row[] = [
  { endpoint: 'baseline: bare Hono form POST', 'tokens/s': bareTokens.perSecond, 'p99 ms': bareTokens.p99, ratio: 1 },
  {
    endpoint: 'POST /api/external/v1/auth/token',
    'tokens/s': tokens.perSecond,
    'p99 ms': tokens.p99,
    ratio: tokens.perSecond / bareTokens.perSecond,
  },
];
const worstList = rows.slice(1).reduce((a, b) => ((b.p99_ms as number) > (a.p99_ms as number) ? b : a));
const worstStock = stockRows.slice(1).reduce((a, b) => ((b.p99_ms as number) > (a.p99_ms as number) ? b : a));
const tables = [
  {
    title: `List queries, page of 20, ${PRODUCTS.toLocaleString('en-US')} products, ${REQUESTS} sequential requests each`,
    rows,
  },
  {
    title: `Stock (endpoint 7), batches of 100 products, ${stockRowCount.toLocaleString('en-US')} stock rows`,
    rows: stockRows,
  },
  { title: 'Token issuance (autocannon, 10 connections)', rows: tokenRows },
];
const chart = [
  {
    label: `list p99, slowest: ${worstList.query}`,
    ours: worstList.p99_ms as number,
    baseline: baseline.p99,
    unit: 'ms',
  },
  {
    label: `stock p99, slowest: ${worstStock.query}`,
    ours: worstStock.p99_ms as number,
    baseline: stockBaseline.p99,
    unit: 'ms',
  },
  { label: 'tokens issued', ours: tokens.perSecond, baseline: bareTokens.perSecond, unit: 'tokens/s' },
];
console.log(`written ${writeResults('emulator', { ...results, quick: QUICK, tables, chart })}`);
bareServer.close();
await server.close();
