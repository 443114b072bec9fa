/**
 * Emulator benchmark: criteria list queries over 100,000 products (p50/p99 per page of 20) and
 * token issuance per second, each next to a bare Hono baseline measured in the same run.
 *   npm run bench:emulator [-- --products 100000 --requests 400 --token-seconds 5]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { Hono } from 'hono';
import { createEmulator, startEmulatorServer } from '../src/emulator/index.js';
import { createClient } from '../src/emulator/clients/create.js';
import { createProduct } from '../src/emulator/products/create.js';
import { createTenant } from '../src/emulator/tenants/create.js';

const { values: knobs } = parseArgs({
  options: { products: { type: 'string', default: '100000' }, requests: { type: 'string', default: '400' }, 'token-seconds': { type: 'string', default: '5' } },
});
const PRODUCTS = Number(knobs.products);
const REQUESTS = Number(knobs.requests);
const TOKEN_SECONDS = Number(knobs['token-seconds']);

const emulator = createEmulator();
const { ctx } = emulator.state;
console.log(`seeding ${PRODUCTS.toLocaleString()} products (plus 10,000 in another tenant)…`);
const seedStarted = performance.now();
for (const [tenantId, count] of [['bench', PRODUCTS], ['other', 10_000]] as const) {
  const tenant = createTenant(ctx, { id: tenantId });
  ctx.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const n = String(i).padStart(6, '0');
      createProduct({ ...ctx, tenant }, {
        externalCode: `P${n}`,
        description: `${['Apple', 'Banana', 'Cherry', 'Date', 'Elder'][i % 5]} product ${n}`,
        code: `SKU-${n}`,
        handlingUnit: i % 3 === 0 ? 'KG' : 'UN',
        withLots: i % 10 === 0,
        barcodes: [{ code: `56${n}${tenantId === 'bench' ? '0' : '1'}`, type: 'GTIN' }],
        ...(i % 10 === 0 ? { lots: [{ code: `L${n}`, active: true, expirationDate: '2030-01-01' }] } : {}),
      });
    }
  })();
}
const seedSeconds = (performance.now() - seedStarted) / 1000;
const credentials = createClient(ctx, 'bench', { kind: 'api', name: 'bench' });

const server = await startEmulatorServer({ emulator });
const form = `client_id=${credentials.client_id}&client_secret=${encodeURIComponent(credentials.client_secret)}`;
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
const tokenResponse = (await (await fetch(`${server.url}/api/external/v1/auth/token`, { method: 'POST', headers: formHeaders, body: form })).json()) as {
  access_token: string;
};
const auth = { authorization: `Bearer ${tokenResponse.access_token}` };

// Baseline: a bare Hono app on the same server stack answering a fixed page of 20 products,
// and a form-parsing POST answering a fixed token body.
const page20 = await (await fetch(`${server.url}/api/external/v1/product?size=20`, { headers: auth })).text();
const bare = new Hono();
bare.get('/list', (c) => c.body(page20, 200, { 'content-type': 'application/json', 'x-total-count': String(PRODUCTS) }));
bare.post('/token', async (c) => {
  const body = await c.req.parseBody();
  return c.json({ access_token: String(body.client_id), token_type: 'Bearer', expires_in: 3600 });
});
const bareServer = await new Promise<{ url: string; close: () => void }>((resolve) => {
  const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    resolve({ url: `http://127.0.0.1:${info.port}`, close: () => s.close() }),
  );
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function latency(url: string, headers: Record<string, string>): Promise<{ p50: number; p99: number; total: string | null }> {
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

const rows: Record<string, unknown>[] = [];
const baseline = await latency(`${bareServer.url}/list`, {});
rows.push({ query: 'baseline: bare Hono, fixed page', p50_ms: baseline.p50, p99_ms: baseline.p99, p99_ratio: 1 });
for (const [name, query] of QUERIES) {
  const m = await latency(`${server.url}/api/external/v1/product?size=20${query ? `&${query}` : ''}`, auth);
  rows.push({ query: name, total: Number(m.total), p50_ms: m.p50, p99_ms: m.p99, p99_ratio: m.p99 / baseline.p99 });
}

async function rate(url: string, headers: Record<string, string>, body: string) {
  const r = await autocannon({ url, method: 'POST', headers, body, connections: 10, duration: TOKEN_SECONDS });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { perSecond: r.requests.average, p99: r.latency.p99 };
}
const bareTokens = await rate(`${bareServer.url}/token`, formHeaders, form);
const tokens = await rate(`${server.url}/api/external/v1/auth/token`, formHeaders, form);

const fmt = (n: unknown) => (typeof n === 'number' ? (Number.isInteger(n) ? n.toLocaleString() : n.toFixed(2)) : String(n ?? ''));
console.log(`\nList queries, page of 20, ${PRODUCTS.toLocaleString()} products in the tenant, ${REQUESTS} sequential requests each (HTTP, keep-alive)`);
console.table(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fmt(v)]))));
console.log('Token issuance (autocannon, 10 connections)');
console.table([
  { endpoint: 'baseline: bare Hono form POST', per_second: fmt(bareTokens.perSecond), p99_ms: fmt(bareTokens.p99), ratio: '1.00' },
  { endpoint: 'POST /api/external/v1/auth/token', per_second: fmt(tokens.perSecond), p99_ms: fmt(tokens.p99), ratio: fmt(tokens.perSecond / bareTokens.perSecond) },
]);

const results = {
  date: new Date().toISOString(),
  node: process.version,
  products: PRODUCTS,
  seedSeconds,
  requestsPerQuery: REQUESTS,
  list: rows,
  tokens: { baseline: bareTokens, emulator: tokens, ratio: tokens.perSecond / bareTokens.perSecond },
  goals: { listP99Ms: 20, tokensPerSecond: 2000 },
};
writeFileSync(new URL('./results/emulator.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log('written bench/results/emulator.json');
bareServer.close();
await server.close();
