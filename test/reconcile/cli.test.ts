import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runMain } from '../support/cli.js';
import { type Credentials, type RunningEmulator, startEmulator } from '../support/emulator.js';
import { tempDir } from '../support/tmp.js';

describe('wms-sync reconcile', () => {
  const tmp = tempDir('reconcile-cli');
  let wms: RunningEmulator;
  let creds: Credentials;
  let env: Record<string, string>;

  const run = (...argv: string[]) => runMain(['reconcile', ...argv], env);

  beforeAll(async () => {
    wms = await startEmulator();
    creds = await wms.tenant('acme');
    env = {
      SQLITE_FILE: `${tmp.dir}/wms-sync.db`,
      LOG_LEVEL: 'silent',
      CONNECTION_NAME: 'acme',
      WMS_BASE_URL: wms.url,
      WMS_CLIENT_ID: creds.clientId,
      WMS_CLIENT_SECRET: creds.clientSecret,
      WEBHOOK_USERNAME: 'wms-acme',
      WEBHOOK_PASSWORD: 'reconcile-cli-password',
      ERP_API_TOKEN: 'erp-token-for-reconcile-cli',
      RECONCILE_SETTLE_SECONDS: '0',
      RECONCILE_CRON: 'off',
      QUEUE_POLL_INTERVAL_MS: '50',
    };
    const token = (await (
      await fetch(`${wms.url}/api/external/v1/auth/token`, {
        method: 'POST',
        body: new URLSearchParams({ client_id: creds.clientId, client_secret: creds.clientSecret }),
      })
    ).json()) as { access_token: string };
    for (const [code, withLots] of [
      ['CLI-1', false],
      ['CLI-2', true],
    ] as const) {
      const res = await fetch(`${wms.url}/api/external/v1/product`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ externalCode: code, description: code, withLots }),
      });
      expect(res.status).toBe(200);
    }
    // No webhook URL is configured for the tenant: these movements are never announced, so they are drift.
    expect(
      (await wms.control('POST', '/tenants/acme/stock/regularizations', { productExternalCode: 'CLI-1', quantity: 4 }))
        .status,
    ).toBe(200);
    expect(
      (
        await wms.control('POST', '/tenants/acme/stock/regularizations', {
          productExternalCode: 'CLI-2',
          quantity: 1.5,
          lotCode: 'LX',
        })
      ).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await wms.close();
    tmp.remove();
  });

  it('runs one now: progress on stderr, the drift table and a summary on stdout, exit 0', async () => {
    const { code, out, err } = await run();
    expect(code).toBe(0);
    expect(err).toMatch(/\] \d+\/\d+ rows \d+ drift \d+/);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PRODUCT\s+LOT\s+STATUS\s+WMS\s+EXPECTED\s+DELTA$/);
    expect(
      lines
        .slice(1, 3)
        .map((l) => l.split(/\s+/))
        .sort(),
    ).toEqual([
      ['CLI-1', '-', 'drift', '4', '0', '4'],
      ['CLI-2', 'LX', 'drift', '1.5', '0', '1.5'],
    ]);
    expect(lines[3]).toMatch(
      /^run \d+ completed in [\d.]+ s: 2 products, 2 rows checked, 2 drift, 0 not found, 0 unsettled, \d+ WMS requests$/,
    );
  });

  it('--json prints the run with its items; the next run finds nothing (the baseline moved)', async () => {
    const { code, out } = await run('--json', '--connection', 'acme');
    expect(code).toBe(0);
    const view = JSON.parse(out) as { status: string; trigger: string; driftCount: number; items: unknown[] };
    expect(view).toMatchObject({ status: 'completed', trigger: 'cli', driftCount: 0, items: [] });
  });

  it('exits 1 with the reason when the run cannot check anything', async () => {
    const fault = await wms.control('POST', '/faults', {
      path: '/api/external/v1/product-all-external-codes',
      status: 400,
      count: 1,
    });
    expect(fault.status).toBe(201);
    const { code, out } = await run();
    expect(code).toBe(1);
    expect(out).toMatch(/^run \d+ failed in/m);
    expect(out).toMatch(/^reason: listing the products failed: .*400/m);
  });

  it('usage errors exit 2: unknown option, unknown connection', async () => {
    const bogus = await run('--bogus');
    expect(bogus.code).toBe(2);
    expect(bogus.err).toMatch(/Usage: wms-sync reconcile/);
    const nobody = await run('--connection', 'nobody');
    expect(nobody.code).toBe(2);
    expect(nobody.err).toMatch(/no connection named "nobody"/);
  });

  it('as a process: runs, prints and exits on its own', async () => {
    const result = await runCli(['reconcile'], env, 30_000);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^run \d+ completed in [\d.]+ s: 2 products, 2 rows checked, 0 drift/m);
  });
});
