/**
 * One measured step of `bench/reconcile.ts`, in a process of its own so that its peak RSS is its
 * own. Reads the service's configuration from the environment (as `wms-sync` does) and prints one
 * JSON line with its result and `maxRssMB`.
 *   seed PRODUCTS DRIFT_EVERY  the service's ledger learns every row (one in DRIFT_EVERY a unit short)
 *   raw                        baseline: endpoint 6, then endpoint 7 in batches, parsed, nothing else
 *   run                        one reconciliation run (executeRun), as the worker runs it
 */
import { loadConfig } from '../../src/lib/config.js';
import { silentLogger } from '../../src/lib/logger.js';
import { openDeps } from '../../src/main.js';
import { executeRun } from '../../src/reconcile/run.js';
import type { NewLedgerMovement } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import { drifts, rowsOf } from './data.js';

const [mode, ...args] = process.argv.slice(2);
const config = loadConfig(process.env);
const connection = config.connections[0]!;
// Sampled: the V8 heap's share of the peak RSS (the rest is Node, modules, SQLite, buffers).
const MB = 2 ** 20;
const heap = { maxHeapTotalMB: 0, maxHeapUsedMB: 0 };
setInterval(() => {
  const m = process.memoryUsage();
  heap.maxHeapTotalMB = Math.max(heap.maxHeapTotalMB, Math.round(m.heapTotal / MB));
  heap.maxHeapUsedMB = Math.max(heap.maxHeapUsedMB, Math.round(m.heapUsed / MB));
}, 50).unref();
const done = (result: Record<string, unknown>) => {
  process.stdout.write(
    `${JSON.stringify({ ...result, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024), ...heap })}\n`,
  );
};

async function seed(products: number, every: number): Promise<void> {
  const store = openStore(config.database);
  await store.migrate();
  const at = new Date(Date.now() - 3_600_000);
  let row = 0;
  let batch: NewLedgerMovement[] = [];
  const started = performance.now();
  for (let i = 0; i < products; i++) {
    for (const r of rowsOf(i)) {
      const quantity = drifts(row, every) ? r.quantity - 1 : r.quantity;
      batch.push({
        connection: connection.name,
        productExternalCode: r.product,
        lotCode: r.lot,
        warehouse: null,
        quantity,
        movementTime: at,
        source: 'bench',
        dedupeKey: `seed-${row}`,
        at,
      });
      row += 1;
      if (batch.length === 5000) {
        await store.ledger.record(batch);
        batch = [];
      }
    }
  }
  await store.ledger.record(batch);
  await store.close();
  done({ movements: row, seconds: (performance.now() - started) / 1000 });
}

async function raw(): Promise<void> {
  const base = `${connection.wms.baseUrl}/api/external/v1`;
  const started = performance.now();
  const { access_token: token } = (await (
    await fetch(`${base}/auth/token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: connection.wms.clientId, client_secret: connection.wms.clientSecret }),
    })
  ).json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const codes = ((await (await fetch(`${base}/product-all-external-codes`, { headers })).json()) as string).split(',');
  let next = 0;
  let rows = 0;
  let requests = 1;
  const lane = async () => {
    while (next < codes.length) {
      const batch = codes.slice(next, (next += config.reconcile.batchSize));
      const res = await fetch(`${base}/product/stock`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ products: batch.map((product) => ({ product })), groupedByLot: true }),
      });
      requests += 1;
      if (res.status !== 200) throw new Error(`stock: ${res.status}`);
      rows += ((await res.json()) as unknown[]).length;
    }
  };
  await Promise.all(Array.from({ length: config.reconcile.parallelism }, lane));
  done({ seconds: (performance.now() - started) / 1000, rows, requests });
}

async function run(): Promise<void> {
  const deps = await openDeps(config, { logger: silentLogger() });
  try {
    const { id } = await deps.store.reconciliation.createRun({
      connection: connection.name,
      trigger: 'cli',
      at: new Date(),
    });
    const started = performance.now();
    const result = (await executeRun({ ...deps, config: config.reconcile }, id))!;
    done({
      seconds: (performance.now() - started) / 1000,
      status: result.status,
      reason: result.reason,
      rows: result.rowsChecked,
      rechecked: result.rowsRechecked,
      drift: result.driftCount,
      requests: result.requests,
    });
  } finally {
    await deps.queue.stop({ graceMs: 0 });
    await deps.store.close();
  }
}

if (mode === 'seed') await seed(Number(args[0]), Number(args[1]));
else if (mode === 'raw') await raw();
else if (mode === 'run') await run();
else throw new Error(`unknown mode ${mode}`);
