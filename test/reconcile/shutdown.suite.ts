import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyStore, openStore } from '../../src/store/index.js';
import { exitOf, spawnCli, waitForOutput } from '../support/cli.js';
import { type RunningEmulator, startEmulator } from '../support/emulator.js';
import { createTestSchema } from '../support/pg.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';

const GRACE_MS = 4000;
const ERP_TOKEN = 'erp-token-for-shutdown-0123';

/**
 * SIGTERM during a reconciliation, with a real `wms-sync serve` process: the run was in its settle
 * wait (RECONCILE_SETTLE_SECONDS=3600). It used to log "stopped" while the run kept calling the WMS,
 * end with "The database connection is not open", and leave the run `running` and its job active
 * with a 30-minute lease. Now the run stops at once, is left `interrupted`, the process exits within
 * SHUTDOWN_GRACE_MS without touching a closed store, and the next start resumes the run at once.
 */
export function shutdownSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`SIGTERM during a reconciliation (${dialect})`, () => {
    let wms: RunningEmulator;
    let env: Record<string, string>;
    let store: () => AnyStore;
    const cleanups: (() => Promise<void> | void)[] = [];

    beforeAll(async () => {
      wms = await startEmulator();
      const client = await wms.tenant('acme');
      const token = (await (
        await fetch(`${wms.url}/api/external/v1/auth/token`, {
          method: 'POST',
          body: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret }),
        })
      ).json()) as { access_token: string };
      for (const code of ['SD-1', 'SD-2']) {
        const res = await fetch(`${wms.url}/api/external/v1/product`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ externalCode: code, description: code }),
        });
        expect(res.status).toBe(200);
        // Stock the service never heard of (no webhook URL configured): a difference to settle.
        expect(
          (await wms.control('POST', '/tenants/acme/stock/regularizations', { productExternalCode: code, quantity: 5 }))
            .status,
        ).toBeLessThan(300);
      }
      env = {
        PORT: '0',
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        RECONCILE_CRON: 'off',
        RECONCILE_SETTLE_SECONDS: '3600',
        QUEUE_POLL_INTERVAL_MS: '50',
        CONNECTION_NAME: 'acme',
        WMS_BASE_URL: wms.url,
        WMS_CLIENT_ID: client.clientId,
        WMS_CLIENT_SECRET: client.clientSecret,
        WEBHOOK_USERNAME: 'wms',
        WEBHOOK_PASSWORD: 'webhook-password',
        ERP_API_TOKEN: ERP_TOKEN,
      };
      if (dialect === 'sqlite') {
        const tmp = tempDir('shutdown');
        cleanups.push(tmp.remove);
        env.DATA_DIR = tmp.dir;
        store = () => openStore({ kind: 'sqlite', file: join(tmp.dir, 'wms-sync.db'), synchronous: 'normal' });
      } else {
        const db = await createTestSchema('shutdown');
        cleanups.push(db.drop);
        env.DATABASE_URL = db.url;
        env.DATABASE_SCHEMA = db.schema;
        store = () => openStore({ kind: 'postgres', url: db.url, poolSize: 2, schema: db.schema });
      }
    });
    afterAll(async () => {
      await wms.close();
      for (const c of cleanups.reverse()) await c();
    });

    const erp = (url: string, method: string, path: string) =>
      fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${ERP_TOKEN}` } }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as any,
      }));

    it('stops at once, leaves the run interrupted, and the next start resumes it at once', async () => {
      const first = spawnCli(['serve'], env);
      let output = '';
      first.stdout.on('data', (d) => (output += d));
      first.stderr.on('data', (d) => (output += d));
      const [, url] = await waitForOutput(first, /"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
      const started = await erp(url!, 'POST', '/erp/v1/reconciliations');
      expect(started.status).toBe(202);
      const runId = started.body.id as number;
      // Both products checked, both differ: the run now waits out its settle window.
      await until(async () => (await erp(url!, 'GET', `/erp/v1/reconciliations/${runId}`)).body.rowsChecked === 2, {
        timeoutMs: 15_000,
        message: 'first pass done',
      });

      const signalledAt = Date.now();
      first.kill('SIGTERM');
      expect(await exitOf(first, GRACE_MS + 10_000)).toBe(0);
      const tookMs = Date.now() - signalledAt;
      expect(output).toContain('"msg":"stopped"');
      expect(output).not.toContain('not open');
      expect(output).not.toContain('jobs still running after SHUTDOWN_GRACE_MS');
      expect(output).toContain('"msg":"reconciliation interrupted"');
      // The run stopped at its safe point: well inside the grace, not after it.
      expect(tookMs).toBeLessThan(GRACE_MS + 5000);

      const s = store();
      try {
        expect(await s.reconciliation.getRun(runId)).toMatchObject({
          status: 'interrupted',
          reason: expect.stringContaining('starts again'),
        });
      } finally {
        await s.close();
      }

      // Next start (a short settle window now): the run is taken up at once, not after its 30-min lease.
      const second = spawnCli(['serve'], { ...env, RECONCILE_SETTLE_SECONDS: '0' });
      try {
        const [, url2] = await waitForOutput(second, /"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
        const done = await until(
          async () => {
            const run = (await erp(url2!, 'GET', `/erp/v1/reconciliations/${runId}`)).body;
            return run.status === 'completed' ? run : undefined;
          },
          { timeoutMs: 20_000, message: 'the interrupted run completed after the restart' },
        );
        expect(done).toMatchObject({ status: 'completed', driftCount: 2 });
      } finally {
        second.kill('SIGTERM');
        await exitOf(second, GRACE_MS + 10_000);
      }
    });
  });
}
