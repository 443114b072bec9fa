import { randomBytes } from 'node:crypto';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WEBHOOK_USERNAME } from '../../src/demo/connection.js';
import { runScenario } from '../../src/demo/scenario.js';
import { wireWebhooks } from '../../src/demo/wire.js';
import { DEFAULT_DEMO_CLIENT, DEMO_TENANT, startEmulatorServer, type EmulatorServer } from '../../src/emulator/index.js';
import { exitOf, spawnCli, waitForOutput } from '../support/cli.js';
import { createTestSchema } from '../support/pg.js';

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

// The same scenario with two `wms-sync serve` processes sharing one Postgres database: webhooks go
// to the first, the ERP calls to the second, and pg-boss hands the jobs to whichever is free.
describe('demo scenario on Postgres with two service processes', () => {
  let db: Awaited<ReturnType<typeof createTestSchema>>;
  let emulator: EmulatorServer;
  const processes: ChildProcessWithoutNullStreams[] = [];
  const urls: string[] = [];
  const secrets = { webhookPassword: randomBytes(12).toString('hex'), erpApiToken: randomBytes(16).toString('hex') };

  beforeAll(async () => {
    db = await createTestSchema('scenario');
    emulator = await startEmulatorServer({ port: 0, seed: 'demo' });
    const env = {
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: db.schema,
      LOG_LEVEL: 'info',
      QUEUE_POLL_INTERVAL_MS: '200',
      RECONCILE_SETTLE_SECONDS: '1',
      CONNECTION_NAME: 'demo',
      WMS_BASE_URL: emulator.url,
      WMS_CLIENT_ID: DEFAULT_DEMO_CLIENT.clientId,
      WMS_CLIENT_SECRET: DEFAULT_DEMO_CLIENT.clientSecret,
      WEBHOOK_USERNAME: DEMO_WEBHOOK_USERNAME,
      WEBHOOK_PASSWORD: secrets.webhookPassword,
      ERP_API_TOKEN: secrets.erpApiToken,
    };
    // One after the other: the first migrates, the second finds the schema ready.
    for (let i = 0; i < 2; i++) {
      const child = spawnCli(['serve', '--port', '0'], env);
      processes.push(child);
      const [, url] = await waitForOutput(child, /"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
      urls.push(url!);
    }
    await wireWebhooks({ emulatorUrl: emulator.url, tenant: DEMO_TENANT, serviceUrl: urls[0]!, connection: 'demo', password: secrets.webhookPassword });
  });

  afterAll(async () => {
    for (const p of processes) p.kill('SIGTERM');
    for (const p of processes) await exitOf(p);
    await emulator.close();
    await db.drop();
  });

  it('passes every check, with both processes working jobs from the shared queue', async () => {
    const lines: string[] = [];
    const result = await runScenario(
      { serviceUrl: urls[1]!, emulatorUrl: emulator.url, tenant: DEMO_TENANT, erpToken: secrets.erpApiToken },
      (l) => lines.push(l),
      { timeoutMs: 30_000 },
    );
    expect(result.failures, lines.join('\n')).toEqual([]);
    const worked = await Promise.all(
      urls.map(async (u) => (await metric(u, 'wms_sync_inbound_processed_total')) + (await metric(u, 'wms_sync_outbound_pushes_total'))),
    );
    // Webhooks arrive at the first process and ERP records at the second; each works jobs.
    expect(worked[0]).toBeGreaterThan(0);
    expect(worked[1]).toBeGreaterThan(0);
    const processed = (await metric(urls[0]!, 'wms_sync_inbound_processed_total')) + (await metric(urls[1]!, 'wms_sync_inbound_processed_total'));
    expect(processed).toBe(4); // reception, shipment, client return, one stock adjustment (the other webhook was lost)
  });
});
