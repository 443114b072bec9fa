import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/commands/connections.js';
import { runMain } from '../support/cli.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { tempDir } from '../support/tmp.js';
import { until } from '../support/wait.js';
import { type ScriptedErp, startScriptedErp } from './erp-receiver.js';
import { postWebhook, uniquePayload } from './support.js';

const REFUSAL = 'Purchase order ERP-PO-7 is already closed';

// An event the ERP refused, as an operator finds it and asks the ERP again from the command line.
describe('wms-sync events and a rejected_by_erp event', () => {
  const tmp = tempDir('close-ack-cli');
  const secret = newWebhookSecret();
  let erp: ScriptedErp;
  let svc: TestService;
  let env: Record<string, string>;
  let id: number;

  beforeAll(async () => {
    erp = await startScriptedErp();
    erp.behave({ status: 200, body: JSON.stringify({ success: false, message: REFUSAL }) });
    const conn = testConnection('acme', {
      webhookPassword: 'cli-password-123',
      erpApiToken: 'erp-token-for-close-ack-cli',
      erpWebhookUrl: erp.url,
      erpWebhookSecret: secret,
      erpCloseAck: 'sync',
    });
    env = {
      SQLITE_FILE: `${tmp.dir}/wms-sync.db`,
      LOG_LEVEL: 'silent',
      CONNECTION_NAME: 'acme',
      WMS_BASE_URL: 'http://127.0.0.1:9',
      WMS_CLIENT_ID: 'client-acme',
      WMS_CLIENT_SECRET: 'secret',
      WEBHOOK_USERNAME: conn.webhookCredentials[0]!.username,
      WEBHOOK_PASSWORD: 'cli-password-123',
      ERP_API_TOKEN: 'erp-token-for-close-ack-cli',
      ERP_WEBHOOK_URL: erp.url,
      ERP_WEBHOOK_SECRET: secret,
      ERP_CLOSE_ACK: 'sync',
    };
    svc = await startTestService({
      label: 'close-ack-cli',
      connections: [conn],
      env: { SQLITE_FILE: env.SQLITE_FILE!, QUEUE_POLL_INTERVAL_MS: '50' },
      worker: true,
    });
    const payload = uniquePayload('reception-close', 'CLI');
    expect(await (await postWebhook(svc.app, conn, 'reception-close', payload)).json()).toEqual({
      success: false,
      message: REFUSAL,
    });
    id = (await svc.deps.store.inbox.findByKey('acme', `reception-close:${payload.closingDocumentCode as string}`))!.id;
  });
  afterAll(async () => {
    await svc?.close();
    await erp?.close();
    tmp.remove();
  });

  it('events list --status rejected_by_erp lists it with the ERP message; events show shows it', async () => {
    const list = await runMain(['events', 'list', '--status', 'rejected_by_erp'], env);
    expect(list.code).toBe(0);
    expect(list.out).toContain(String(id));
    expect(list.out).toContain(REFUSAL);
    const shown = await runMain(['events', 'show', String(id)], env);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('rejected_by_erp');
    expect(shown.out).toContain(REFUSAL);
  });

  it('events retry asks the ERP again: still refused while it says no (exit 1), processed once it accepts', async () => {
    const refused = await runMain(['events', 'retry', String(id)], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`refuses it: ${REFUSAL}`);
    expect((await svc.deps.store.inbox.get(id))?.status).toBe('rejected_by_erp');
    erp.behave({ status: 200, body: '{"success":true}' });
    const retried = await runMain(['events', 'retry', String(id)], env);
    expect(retried.code, retried.err).toBe(0);
    expect(retried.out).toContain('the ERP accepts it now');
    await until(async () => (await svc.deps.store.inbox.get(id))?.status === 'processed');
  });
});
