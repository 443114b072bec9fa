/**
 * The emulator in a process of its own for `bench/reconcile.ts` (a WMS is a remote service), seeded
 * with the benchmark's stock through its in-process functions (no webhooks). Counts the API
 * requests it answers (`GET /_bench/counts`, `POST /_bench/counts/reset`). Prints one JSON line:
 * `{url, clientId, clientSecret, rows}`.
 *   node --import tsx bench/reconcile/emulator.ts PRODUCTS
 */
import { serve } from '@hono/node-server';
import { createClient } from '../../src/emulator/clients/create.js';
import { createEmulator } from '../../src/emulator/index.js';
import { createProduct } from '../../src/emulator/products/create.js';
import { ensureLot } from '../../src/emulator/stock/lot-rules.js';
import { addStock } from '../../src/emulator/stock/store.js';
import { createTenant } from '../../src/emulator/tenants/create.js';
import { hasLots, productCode, rowsOf, TENANT } from './data.js';

const PRODUCTS = Number(process.argv[2] ?? 90_000);
const emulator = createEmulator();
const { ctx } = emulator.state;
const tenant = createTenant(ctx, { id: TENANT });
const tctx = { ...ctx, tenant };
const { id: warehouseId } = ctx.sql(`SELECT id FROM warehouses WHERE tenant_id = ? AND code = 'MAIN'`).get(TENANT) as {
  id: number;
};
let rows = 0;
ctx.db.transaction(() => {
  for (let i = 0; i < PRODUCTS; i++) {
    const lots = hasLots(i);
    const product = createProduct(tctx, {
      externalCode: productCode(i),
      description: `Benchmark product ${i}`,
      withLots: lots,
    });
    const { id } = ctx
      .sql('SELECT id FROM products WHERE tenant_id = ? AND external_code = ?')
      .get(TENANT, product.externalCode) as { id: number };
    for (const row of rowsOf(i)) {
      if (row.lot) ensureLot(tctx, id, row.lot, undefined);
      addStock(tctx, { productId: id, lotCode: row.lot, warehouseId, location: 'STOCK' }, row.quantity);
      rows += 1;
    }
  }
})();
const client = createClient(ctx, TENANT, { kind: 'api', name: 'bench' });

const counts = { token: 0, codes: 0, stock: 0, other: 0 };
const server = serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req: Request) => {
      const path = new URL(req.url).pathname;
      if (path === '/_bench/counts') return Response.json(counts);
      if (path === '/_bench/counts/reset') {
        Object.assign(counts, { token: 0, codes: 0, stock: 0, other: 0 });
        return Response.json(counts);
      }
      if (path.endsWith('/auth/token')) counts.token += 1;
      else if (path.endsWith('/product-all-external-codes')) counts.codes += 1;
      else if (path.endsWith('/product/stock')) counts.stock += 1;
      else counts.other += 1;
      return emulator.app.fetch(req);
    },
  },
  (info) =>
    process.stdout.write(
      `${JSON.stringify({ url: `http://127.0.0.1:${info.port}`, clientId: client.client_id, clientSecret: client.client_secret, rows })}\n`,
    ),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
