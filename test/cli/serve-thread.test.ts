import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../inbound/support.js';
import { exitOf, spawnCli, waitForOutput } from '../support/cli.js';
import { basicAuth } from '../support/service.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';

const CONNECTION = {
  CONNECTION_NAME: 'acme',
  WMS_BASE_URL: 'http://127.0.0.1:9',
  WMS_CLIENT_ID: 'thread-client',
  WMS_CLIENT_SECRET: 'thread-secret-0123456789',
  WEBHOOK_USERNAME: 'wms-thread',
  WEBHOOK_PASSWORD: 'thread-password-0123',
  ERP_API_TOKEN: 'thread-erp-token-0123456789',
  ADMIN_TOKEN: 'thread-admin-token-0123456789',
};
const AUTH = basicAuth('wms-thread', 'thread-password-0123');
const PROCESSED = /^wms_sync_inbound_processed_total\{connection="acme",kind="reception-close"\} (\d+)$/m;

/**
 * `serve` on SQLite with WORKER_THREAD=true runs its jobs on a worker thread: webhooks
 * acknowledged by the receiver's thread are processed by the worker's, whose metrics show in the
 * one `/metrics`, and the console's WMS token counters are those of the thread whose pushes ask
 * for tokens; SIGTERM stops both. With WORKER_THREAD=false the same, on one thread.
 */
describe('wms-sync serve: the worker thread', () => {
  const tmp = tempDir('serve-thread');
  afterAll(() => tmp.remove());

  for (const setting of ['true', 'false'] as const) {
    it(`WORKER_THREAD=${setting}: webhooks are processed and counted in /metrics, the overview shows the jobs' WMS tokens; SIGTERM exits 0`, async () => {
      const child = spawnCli(['serve', '--port', '0'], {
        DATA_DIR: `${tmp.dir}/${setting}`,
        LOG_LEVEL: 'info',
        WORKER_THREAD: setting,
        ...CONNECTION,
      });
      const [, line, url] = await waitForOutput(child, /^(\{.*"url":"(http:\/\/127\.0\.0\.1:\d+)".*)\n/m);
      expect(JSON.parse(line!)).toMatchObject({
        msg: 'wms-sync listening',
        worker: setting === 'true' ? 'thread' : true,
      });

      const codes = ['THREAD-1', 'THREAD-2', 'THREAD-3'];
      for (const code of codes) {
        const res = await fetch(`${url}/webhooks/acme/reception-close`, {
          method: 'POST',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ ...fixture('reception-close'), closingDocumentCode: code }),
        });
        expect(res.status).toBe(200);
      }
      // Processing happens on the other thread, out of this test's reach: poll the scrape.
      const metrics = await until(
        async () => {
          const text = await (await fetch(`${url}/metrics`)).text();
          return Number(PROCESSED.exec(text)?.[1] ?? 0) === codes.length ? text : undefined;
        },
        { message: 'three events processed in /metrics' },
      );
      expect(metrics).toMatch(/^wms_sync_webhooks_received_total\{connection="acme",kind="reception-close"\} 3$/m);
      expect(metrics).toMatch(/^wms_sync_process_cpu_user_seconds_total \d/m);
      expect(metrics).toMatch(/^wms_sync_inbound_processing_lag_seconds_count\{kind="reception-close"\} 3$/m);

      // A product pushed by the jobs asks the WMS (nothing listens there) for a token: the failed
      // request shows in the overview the receiver's thread answers.
      const put = await fetch(`${url}/erp/v1/products/P-THREAD`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${CONNECTION.ERP_API_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ externalCode: 'P-THREAD', description: 'pushed from the worker' }),
      });
      expect(put.status).toBe(202);
      const wms = await until(
        async () => {
          const res = await fetch(`${url}/admin/v1/connections/acme/overview`, {
            headers: { authorization: `Bearer ${CONNECTION.ADMIN_TOKEN}` },
          });
          const o = (await res.json()) as { wms: { tokenRequests: number; tokenFailures: number } };
          return o.wms.tokenFailures > 0 ? o.wms : undefined;
        },
        { message: 'a failed token request in the overview' },
      );
      expect(wms.tokenRequests).toBeGreaterThanOrEqual(wms.tokenFailures);

      child.kill('SIGTERM');
      expect(await exitOf(child)).toBe(0);
    });
  }
});
