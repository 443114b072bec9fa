import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.js';
import { silentLogger } from '../../src/lib/logger.js';
import { openDeps } from '../../src/main.js';
import { wmsPushJobs } from '../../src/push/jobs.js';
import { startWorkers } from '../../src/worker.js';
import { runMain } from '../support/cli.js';
import { type RunningEmulator, startEmulator } from '../support/emulator.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/erp');

// `wms-sync push` and `wms-sync pushes` as an operator runs them, against the emulator.
describe('CLI: push and sync', () => {
  let wms: RunningEmulator;
  const tmp = tempDir('cli-push');
  let env: Record<string, string>;

  beforeAll(async () => {
    wms = await startEmulator();
    const creds = await wms.tenant('erp');
    env = {
      SQLITE_FILE: join(tmp.dir, 'wms-sync.db'),
      WMS_BASE_URL: wms.url,
      WMS_CLIENT_ID: creds.clientId,
      WMS_CLIENT_SECRET: creds.clientSecret,
      WEBHOOK_USERNAME: 'wms',
      WEBHOOK_PASSWORD: randomBytes(12).toString('hex'),
      ERP_API_TOKEN: randomBytes(16).toString('hex'),
      CONNECTION_NAME: 'erp',
      QUEUE_POLL_INTERVAL_MS: '50',
      PUSH_RETRY_BASE_MS: '20',
      WMS_MAX_CONCURRENCY: '4',
    };
  });
  afterAll(async () => {
    await wms.close();
    tmp.remove();
  });

  const run = (...argv: string[]) => runMain(argv, env);

  const wmsCount = async (path: string) => {
    const token = (await (
      await fetch(`${wms.url}/api/external/v1/auth/token`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: env.WMS_CLIENT_ID!, client_secret: env.WMS_CLIENT_SECRET! }),
      })
    ).json()) as { access_token: string };
    const res = await fetch(`${wms.url}/api/external/v1${path}`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    return Number(res.headers.get('x-total-count'));
  };

  it('loads the sample set in order: products, delivery points, documents, with a progress bar and a summary', async () => {
    const products = await run('push', 'products', join(FIXTURES, 'products.json'));
    expect(products.err).toBe('');
    expect(products.code).toBe(0);
    expect(products.out).toContain('products: 20 read, 0 invalid, 20 queued, 0 unchanged');
    expect(products.out).toMatch(/\[#{30}\] 20\/20 synced 20 failed 0 pending 0/);
    expect(products.out).toMatch(/done in [\d.]+ s: 20 synced, 0 failed, 0 still pending/);

    expect((await run('push', 'delivery-points', join(FIXTURES, 'delivery-points.json'))).code).toBe(0);
    const documents = await run('push', 'documents', join(FIXTURES, 'documents.json'));
    expect(documents.code).toBe(0);
    expect(documents.out).toContain('10 synced, 0 failed');
    expect(await wmsCount('/product?page=0&size=1')).toBe(20);
    expect(await wmsCount('/delivery-point?page=0&size=1')).toBe(8);
    expect(await wmsCount('/document?page=0&size=1')).toBe(10);
  });

  it('the same products from CSV are unchanged: nothing is pushed again', async () => {
    const again = await run('push', 'products', join(FIXTURES, 'products.csv'));
    expect(again.code).toBe(0);
    expect(again.out).toContain('products: 20 read, 0 invalid, 0 queued, 20 unchanged');
  });

  it('reports invalid items and WMS refusals, exits 1, and says how to retry', async () => {
    const file = join(tmp.dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify([
        { externalCode: 'CLI-OK', description: 'fine' },
        { externalCode: 'CLI-BAD', weight: 'heavy' },
        { externalCode: 'CLI-DUP-SKU', description: 'same SKU as the olive oil', code: 'OLV-001' },
      ]),
    );
    const res = await run('push', 'products', file);
    expect(res.code).toBe(1);
    expect(res.out).toContain('3 read, 1 invalid, 2 queued');
    expect(res.out).toContain('invalid item 1 (CLI-BAD): description:');
    expect(res.out).toContain('1 synced, 1 failed');
    expect(res.out).toContain('failed CLI-DUP-SKU: Product SKU already exists');
    expect(res.out).toContain('wms-sync pushes retry products');
  });

  it('pushes show prints the state; pushes retry queues a failed record, which a worker then pushes', async () => {
    const shown = await run('pushes', 'show', 'products', 'CLI-DUP-SKU');
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({
      state: 'failed',
      lastError: { message: 'Product SKU already exists' },
    });

    // The conflict is fixed in the WMS: the olive oil gets another SKU.
    const token = (await (
      await fetch(`${wms.url}/api/external/v1/auth/token`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: env.WMS_CLIENT_ID!, client_secret: env.WMS_CLIENT_SECRET! }),
      })
    ).json()) as { access_token: string };
    const fix = await fetch(`${wms.url}/api/external/v1/product`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        externalCode: 'OLV-OIL-1L',
        description: 'Extra virgin olive oil 1 L',
        code: 'OLV-001-OLD',
      }),
    });
    expect(fix.status).toBe(200);

    const retried = await run('pushes', 'retry', 'products', 'CLI-DUP-SKU', 'NEVER-SENT');
    expect(retried.code).toBe(1);
    expect(retried.out).toContain('CLI-DUP-SKU: queued');
    expect(retried.out).toContain('NEVER-SENT: not found');
    expect(JSON.parse((await run('pushes', 'show', 'products', 'CLI-DUP-SKU')).out).state).toBe('pending');

    // A worker on the same database (what `serve` or `worker` runs) pushes it.
    const deps = await openDeps({ ...loadConfig({ ...env, LOG_LEVEL: 'silent' }) }, { logger: silentLogger() });
    try {
      await startWorkers(deps, [wmsPushJobs]);
      await until(async () => (await deps.store.pushes.get('erp', 'product', 'CLI-DUP-SKU'))?.state === 'synced', {
        message: 'retried product synced',
      });
    } finally {
      await deps.queue.stop({ graceMs: 1000 });
      await deps.store.close();
    }
    expect((await run('pushes', 'retry', '--failed')).out).toContain('0 failed record(s) queued again');
  });

  it('usage errors exit 2 with the help; an unreadable file exits 1 with one line', async () => {
    const noKind = await run('push', 'suppliers', 'x.json');
    expect(noKind.code).toBe(2);
    expect(noKind.err).toContain('expected one of products, delivery-points, documents');
    expect((await run('push', 'products')).code).toBe(2);
    expect((await run('pushes', 'retry', 'products')).code).toBe(2);
    expect((await run('pushes', 'retry', '--failed', 'products', 'X')).code).toBe(2);
    const missing = await run('push', 'products', join(tmp.dir, 'nope.json'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope\.json/);
    const help = await run('push', '--help');
    expect(help.out).toContain('Usage: wms-sync push');
  });
});
