import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CloseDocumentReceived, createErpReceiver } from '../../docs/examples/erp-receiver.js';
import { newWebhookSecret } from '../../src/commands/connections.js';
import { signMessage } from '../../src/erp/delivery/sign.js';
import { inboundJobs } from '../../src/inbound/jobs.js';
import type { ConnectionConfig } from '../../src/lib/connections.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { postWebhook, uniquePayload } from './support.js';

const EXAMPLE = new URL('../../docs/examples/erp-receiver.ts', import.meta.url);
const DOC = new URL('../../docs/erp-delivery.md', import.meta.url);

// The receiver docs/erp-delivery.md shows, run as printed against the real service (ERP_CLOSE_ACK=sync).
describe('docs/erp-delivery.md: the TypeScript receiver', () => {
  const secret = newWebhookSecret();
  let server: Server;
  let url: string;
  let svc: TestService;
  let conn: ConnectionConfig;
  const decided: CloseDocumentReceived[] = [];
  const events: { type: string; id: string }[] = [];

  beforeAll(async () => {
    server = createErpReceiver({
      secret,
      decide: (m) => {
        decided.push(m);
        return m.data.documentExternalCode === 'PO-CLOSED' ? 'Purchase order PO-CLOSED is already closed' : undefined;
      },
      onEvent: (event, id) => {
        events.push({ type: event.type, id });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/erp`;
    conn = testConnection('docs', { erpWebhookUrl: url, erpWebhookSecret: secret, erpCloseAck: 'sync' });
    svc = await startTestService({ label: 'close-ack-example', connections: [conn], worker: [inboundJobs] });
  });
  afterAll(async () => {
    await svc?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('the doc prints the example file exactly', () => {
    expect(readFileSync(DOC, 'utf8')).toContain(`\`\`\`ts\n${readFileSync(EXAMPLE, 'utf8')}\`\`\``);
  });

  it('refuses the document it decides to refuse: the WMS gets its message', async () => {
    const res = await postWebhook(svc.app, conn, 'reception-close', {
      ...uniquePayload('reception-close', 'DOC'),
      documentExternalCode: 'PO-CLOSED',
    });
    expect(await res.json()).toEqual({ success: false, message: 'Purchase order PO-CLOSED is already closed' });
    expect(decided.at(-1)).toMatchObject({
      type: 'close_document.received',
      connection: 'docs',
      kind: 'reception-close',
      data: { documentExternalCode: 'PO-CLOSED' },
    });
  });

  it('accepts the others: processed', async () => {
    const payload = uniquePayload('shipping-order-close', 'DOC');
    expect(await (await postWebhook(svc.app, conn, 'shipping-order-close', payload)).json()).toEqual({ success: true });
    await until(
      async () =>
        (await svc.deps.store.inbox.findByKey('docs', `shipping-order-close:${payload.closingDocumentCode as string}`))
          ?.status === 'processed',
    );
  });

  it('hands a signed feed event on with its webhook-id, and refuses an unsigned one with 401', async () => {
    const body = JSON.stringify({ type: 'stock.adjusted', data: { productExternalCode: 'OIL', quantity: 2 } });
    const ok = await fetch(url, {
      method: 'POST',
      headers: { ...signMessage([secret], 'evt_42', new Date(), body) },
      body,
    });
    expect(ok.status).toBe(200);
    expect(events).toEqual([{ type: 'stock.adjusted', id: 'evt_42' }]);
    const forged = await fetch(url, {
      method: 'POST',
      headers: { ...signMessage([newWebhookSecret()], 'evt_43', new Date(), body) },
      body,
    });
    expect(forged.status).toBe(401);
    expect(events).toHaveLength(1);
  });
});
