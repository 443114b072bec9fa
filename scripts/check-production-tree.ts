/**
 * `npm run check:production` (run by .ci/run): boots the tree the Docker image holds, as the image
 * runs it. scripts/production-tree.ts lays it out from the Dockerfile's COPY lines; then, with
 * NODE_ENV=production and no sources, the emulator runs from it, and `serve` on SQLite and on
 * Postgres (a schema of its own) must answer /healthz and /readyz, render /docs and /_emulator/docs
 * in a browser with no internet, play the demo scenario (the ERP's pushes reach the emulator, the
 * emulator's webhooks are acknowledged and processed into the ERP feed) and exit 0 on SIGTERM;
 * `worker` on Postgres must push what `push --queue-only` queued. Exits 1 at the first failure.
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run check:production
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ASSETS } from '../src/console/nav.js';
import { runScenario } from '../src/demo/scenario.js';
import { wireWebhooks } from '../src/demo/wire.js';
import { blockInternet, openBrowser } from '../test/support/browser.js';
import { dataDir, EMULATOR_LISTENING, openTree, SERVE_LISTENING, startProduction } from './production-process.js';
import { makeProductionTree } from './production-tree.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const GRACE_MS = 5000;
const CONNECTION = {
  CONNECTION_NAME: 'check',
  WMS_CLIENT_ID: 'demo-client',
  WMS_CLIENT_SECRET: 'demo-secret',
  WEBHOOK_USERNAME: 'wms-check',
  WEBHOOK_PASSWORD: 'check-webhook-password',
  ERP_API_TOKEN: 'check-erp-token-0123456789',
  // Turns the console on, so its assets are served.
  ADMIN_TOKEN: 'check-admin-token-0123456789',
};

const started = performance.now();
const say = (line: string) =>
  process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);
function check(ok: boolean, what: string, detail = ''): void {
  if (!ok) throw new Error(`${what}${detail ? `: ${detail}` : ''}`);
  say(`✔ ${what}`);
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** Renders a reference page in Chromium with the internet cut off, until `text` shows. */
async function rendersOffline(url: string, text: string): Promise<void> {
  const browser = await openBrowser();
  try {
    const blocked = await blockInternet(browser.context);
    await browser.page.goto(url);
    await browser.page.getByText(text).first().waitFor({ timeout: 30_000 });
    check(blocked.length === 0, `${new URL(url).pathname} renders offline`, `it asked the internet for ${blocked}`);
  } finally {
    await browser.close();
  }
}

async function serveChecks(tree: string, emulatorUrl: string, label: string, db: Record<string, string>) {
  const serve = startProduction(tree, ['serve'], {
    ...CONNECTION,
    ...db,
    WMS_BASE_URL: emulatorUrl,
    DATA_DIR: dataDir(tree, `data-${label}`),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RECONCILE_SETTLE_SECONDS: '3',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
  });
  try {
    const url = (await serve.waitFor(SERVE_LISTENING))[1]!;
    say(`serve on ${label}: ${url}`);
    check((await get(`${url}/healthz`)).status === 200, `${label}: /healthz 200`);
    const ready = await get(`${url}/readyz`);
    check(ready.status === 200, `${label}: /readyz 200`, ready.text);
    const docs = await get(`${url}/docs`);
    check(docs.status === 200 && docs.type.startsWith('text/html'), `${label}: /docs 200 text/html`);
    await rendersOffline(`${url}/docs`, 'Webhook receiver for the WMS');
    // Served from dist/assets/: the packages they come from are development dependencies.
    for (const asset of ['console.css', 'console.js', 'htmx.min.js']) {
      const res = await get(`${url}${ASSETS}/${asset}`);
      check(res.status === 200 && res.text.length > 100, `${label}: ${ASSETS}/${asset} 200`, `${res.status}`);
    }

    await wireWebhooks({
      emulatorUrl,
      tenant: 'demo',
      serviceUrl: url,
      connection: CONNECTION.CONNECTION_NAME,
      username: CONNECTION.WEBHOOK_USERNAME,
      password: CONNECTION.WEBHOOK_PASSWORD,
    });
    const lines: string[] = [];
    const result = await runScenario(
      { serviceUrl: url, emulatorUrl, tenant: 'demo', erpToken: CONNECTION.ERP_API_TOKEN },
      (line) => lines.push(line),
      { timeoutMs: 60_000 },
    );
    check(result.failures.length === 0, `${label}: the demo scenario passes`, `\n${lines.join('\n')}`);
    say(
      `  ${lines.filter((l) => l.includes('✔')).length} outcomes checked: pushes reached the emulator, webhooks reached the feed`,
    );

    const t = performance.now();
    const code = await serve.stop(GRACE_MS + 20_000);
    check(
      code === 0,
      `${label}: SIGTERM: exits 0 (in ${Math.round(performance.now() - t)} ms, grace ${GRACE_MS} ms)`,
      `exit ${code}`,
    );
  } catch (err) {
    await serve.stop(1000);
    throw err;
  }
}

/** `push --queue-only` stores and queues a product with no worker running; `worker` must push it. */
async function workerChecks(tree: string, emulatorUrl: string, db: Record<string, string>) {
  const env = {
    ...CONNECTION,
    ...db,
    WMS_BASE_URL: emulatorUrl,
    DATA_DIR: dataDir(tree, 'data-worker'),
    LOG_LEVEL: 'info',
  };
  const code = `CHECK-${Date.now().toString(36).toUpperCase()}`;
  const file = join(dataDir(tree, 'data-worker'), 'products.json');
  writeFileSync(file, JSON.stringify([{ externalCode: code, description: 'Production tree check', code }]));
  const push = startProduction(tree, ['push', 'products', file, '--queue-only'], env);
  check((await push.exited) === 0, 'push --queue-only stores and queues a product', push.output());
  const worker = startProduction(tree, ['worker'], env);
  try {
    await worker.waitFor(/wms-sync worker running/);
    const token = await wmsToken(emulatorUrl);
    const deadline = Date.now() + 60_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await get(`${emulatorUrl}/api/external/v1/product/${code}`, { authorization: `Bearer ${token}` }))
        .status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    check(status === 200, `worker on postgres: pushed ${code} to the emulator`, `last status ${status}`);
    const exit = await worker.stop(GRACE_MS + 20_000);
    check(exit === 0, 'worker: SIGTERM: exits 0', `exit ${exit}`);
  } catch (err) {
    await worker.stop(1000);
    throw err;
  }
}

async function wmsToken(emulatorUrl: string): Promise<string> {
  const res = await fetch(`${emulatorUrl}/api/external/v1/auth/token`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: CONNECTION.WMS_CLIENT_ID, client_secret: CONNECTION.WMS_CLIENT_SECRET }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function withSchema<T>(run: (schema: string) => Promise<T>): Promise<T> {
  const schema = `check_production_${process.pid}`;
  const sql = async (q: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(q);
    await client.end();
  };
  await sql(`CREATE SCHEMA "${schema}"`);
  try {
    return await run(schema);
  } finally {
    await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; DROP SCHEMA IF EXISTS "${schema}_boss" CASCADE`);
  }
}

/** A fresh emulator for each database: the scenario's reconciliation compares the whole tenant's stock. */
async function withEmulator(tree: string, run: (url: string) => Promise<void>): Promise<void> {
  const emulator = startProduction(tree, ['emulator', '--seed', 'demo', '--port', '0'], { LOG_LEVEL: 'warn' });
  try {
    const url = (await emulator.waitFor(EMULATOR_LISTENING))[1]!;
    say(`emulator: ${url}`);
    await run(url);
  } finally {
    await emulator.stop(5000);
  }
}

const base = mkdtempSync(join(tmpdir(), 'wms-sync-production-'));
const tree = join(base, 'app');
try {
  const copies = makeProductionTree(tree);
  openTree(base);
  say(`production tree in ${tree}: ${copies.map((c) => c.target).join(', ')} (the Dockerfile's COPY lines)`);
  await withEmulator(tree, async (emulatorUrl) => {
    await rendersOffline(`${emulatorUrl}/_emulator/docs`, 'A stateful emulator');
    await serveChecks(tree, emulatorUrl, 'sqlite', {});
  });
  await withSchema(async (schema) => {
    const db = { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema };
    await withEmulator(tree, async (emulatorUrl) => {
      await serveChecks(tree, emulatorUrl, 'postgres', db);
      await workerChecks(tree, emulatorUrl, db);
    });
  });
  say(`production tree check passed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
} catch (err) {
  process.stderr.write(`production tree check FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
} finally {
  rmSync(base, { recursive: true, force: true });
}
