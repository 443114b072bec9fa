import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/commands/connections.js';
import { DEMO_CONNECTION, DEMO_WEBHOOK_USERNAME } from '../../src/demo/connection.js';
import { type SampleErp, startSampleErp } from '../../src/demo/sample-erp.js';
import { runScenario } from '../../src/demo/scenario.js';
import { scenarioCodes } from '../../src/demo/steps.js';
import { wireWebhooks } from '../../src/demo/wire.js';
import {
  DEFAULT_DEMO_CLIENT,
  DEMO_TENANT,
  type EmulatorServer,
  startEmulatorServer,
} from '../../src/emulator/index.js';
import { exitOf, spawnCli, waitForOutput } from '../support/cli.js';
import { createTestSchema } from '../support/pg.js';
import { until } from '../support/wait.js';
import { expectErpRefusal } from './erp-refusal-outcome.js';
import { expectScenarioFeed, expectScenarioWms, readFeed } from './outcome.js';

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

// The same scenario with two `wms-sync serve` processes sharing one Postgres database: webhooks go
// to the first (A), the ERP calls to the second (B), and pg-boss hands the jobs to whichever is free.
describe('demo scenario on Postgres with two service processes', () => {
  let db: Awaited<ReturnType<typeof createTestSchema>>;
  let emulator: EmulatorServer;
  let sampleErp: SampleErp;
  const erpSecret = newWebhookSecret();
  const processes: ChildProcessWithoutNullStreams[] = [];
  const logs: string[] = ['', ''];
  const urls: string[] = [];
  const secrets = { webhookPassword: randomBytes(12).toString('hex'), erpApiToken: randomBytes(16).toString('hex') };
  const basic = `Basic ${Buffer.from(`${DEMO_WEBHOOK_USERNAME}:${secrets.webhookPassword}`).toString('base64')}`;

  beforeAll(async () => {
    db = await createTestSchema('scenario');
    emulator = await startEmulatorServer({ port: 0, seed: 'demo' });
    sampleErp = await startSampleErp({ port: 0, secrets: [erpSecret] });
    const env = {
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: db.schema,
      // Debug: every request is logged, so each process's log says which routes it served.
      LOG_LEVEL: 'debug',
      QUEUE_POLL_INTERVAL_MS: '50',
      // One job at a time per process: jobs queued while a process is busy wait for the other.
      WORKER_CONCURRENCY: '1',
      WORKER_BATCH_SIZE: '1',
      RECONCILE_SETTLE_SECONDS: '1',
      // The scenario asks for its one run; the hourly default would add one at the top of an hour.
      RECONCILE_CRON: 'off',
      CONNECTION_NAME: DEMO_CONNECTION,
      WMS_BASE_URL: emulator.url,
      WMS_CLIENT_ID: DEFAULT_DEMO_CLIENT.clientId,
      WMS_CLIENT_SECRET: DEFAULT_DEMO_CLIENT.clientSecret,
      WEBHOOK_USERNAME: DEMO_WEBHOOK_USERNAME,
      WEBHOOK_PASSWORD: secrets.webhookPassword,
      ERP_API_TOKEN: secrets.erpApiToken,
      // As `start` wires it: close documents wait for the sample ERP, which can refuse one.
      ERP_WEBHOOK_URL: sampleErp.webhookUrl,
      ERP_WEBHOOK_SECRET: erpSecret,
      ERP_CLOSE_ACK: 'sync',
    };
    // One after the other: the first migrates, the second finds the schema ready.
    for (let i = 0; i < 2; i++) {
      const child = spawnCli(['serve', '--port', '0'], env);
      child.stdout.on('data', (d) => (logs[i] += d));
      processes.push(child);
      const [, url] = await waitForOutput(child, /"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
      urls.push(url!);
    }
    await wireWebhooks({
      emulatorUrl: emulator.url,
      tenant: DEMO_TENANT,
      serviceUrl: urls[0]!,
      connection: DEMO_CONNECTION,
      password: secrets.webhookPassword,
    });
  });

  afterAll(async () => {
    for (const p of processes) p.kill('SIGTERM');
    for (const p of processes) await exitOf(p);
    await emulator.close();
    await sampleErp.close();
    await db.drop();
  });

  it('passes the scenario, leaving the feed and the emulator as it must', async () => {
    const lines: string[] = [];
    const codes = scenarioCodes('PG');
    const result = await runScenario(
      {
        serviceUrl: urls[1]!,
        emulatorUrl: emulator.url,
        tenant: DEMO_TENANT,
        erpToken: secrets.erpApiToken,
        erpUrl: sampleErp.url,
      },
      (l) => lines.push(l),
      { timeoutMs: 30_000, run: 'PG' },
    );
    expect(result.failures, lines.join('\n')).toEqual([]);
    expectScenarioFeed(await readFeed(urls[1]!, secrets.erpApiToken), codes, { reconciled: true });
    await expectScenarioWms(emulator.url, DEMO_TENANT, DEFAULT_DEMO_CLIENT, codes);
    await expectErpRefusal(emulator.url, sampleErp.url, codes);
    const processed =
      (await metric(urls[0]!, 'wms_sync_inbound_processed_total')) +
      (await metric(urls[1]!, 'wms_sync_inbound_processed_total'));
    // reception, shipment, client return, one stock adjustment (the other webhook was lost), and the
    // reception the ERP refused, processed once re-sent and accepted
    expect(processed).toBe(5);
  });

  /**
   * Each process works jobs the other one enqueued. Inbound jobs are enqueued only by the process
   * a webhook reaches (A), so B processing an event proves it worked one of A's jobs. Push jobs are
   * enqueued by the ERP API (only B serves it) and by push jobs themselves (retries, wake-ups), so
   * the first push A made was of a job B enqueued. Both premises are checked in the logs, and more
   * work is sent (a webhook to A, a product to B) until each process has shown it, or time is up.
   */
  it('both processes work jobs the other one enqueued, from the shared queue', async () => {
    const [a, b] = urls as [string, string];
    let round = 0;
    const crossed = async () => ({
      bProcessedAnEventOfA: (await metric(b, 'wms_sync_inbound_processed_total')) > 0,
      aPushedARecordOfB: (await metric(a, 'wms_sync_wms_push_outcomes_total')) > 0,
    });
    await until(
      async () => {
        const seen = await crossed();
        if (seen.bProcessedAnEventOfA && seen.aPushedARecordOfB) return seen;
        round += 1;
        const products = Array.from({ length: 8 }, (_, i) => ({
          externalCode: `CROSS-${round}-${i}`,
          description: 'two processes',
        }));
        const batch = await fetch(`${b}/erp/v1/products:batch`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secrets.erpApiToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ items: products }),
        });
        expect(batch.status).toBe(202);
        for (let i = 0; i < 8; i++) {
          const hook = await fetch(`${a}/webhooks/${DEMO_CONNECTION}/stock-regularization`, {
            method: 'POST',
            headers: { authorization: basic, 'content-type': 'application/json' },
            body: JSON.stringify({
              productExternalCode: `CROSS-${round}-${i}`,
              quantity: 1,
              movementTime: new Date().toISOString(),
            }),
          });
          expect(hook.status).toBe(200);
        }
        return undefined;
      },
      { timeoutMs: 25_000, everyMs: 200, message: 'each process worked a job the other enqueued' },
    );
    // The premises: webhooks reached A only, ERP calls B only.
    expect(await metric(b, 'wms_sync_webhooks_received_total')).toBe(0);
    expect(await metric(a, 'wms_sync_webhooks_received_total')).toBeGreaterThan(0);
    const served = (log: string, prefix: string) =>
      log.split('\n').some((l) => l.includes(`"path":"${prefix}`) && l.includes('"msg":"request'));
    expect(served(logs[0]!, '/webhooks/') && served(logs[1]!, '/erp/v1/')).toBe(true);
    expect(served(logs[0]!, '/erp/v1/')).toBe(false);
    expect(served(logs[1]!, '/webhooks/')).toBe(false);
  });
});
