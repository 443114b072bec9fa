import { afterEach, describe, expect, it } from 'vitest';
import { type EmulatorServer, startEmulatorServer } from '../../src/emulator/index.js';
import type { CloseShippingOrderPayload } from '../../src/wms/index.js';
import { type Receiver, startReceiver } from '../emulator/receiver.js';
import { runMain } from '../support/cli.js';

const servers: EmulatorServer[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const r of receivers.splice(0)) await r.close();
});

/** `wms-sync emulator trigger …` in-process, to completion. */
async function trigger(args: string[], env: Record<string, string> = {}) {
  return runMain(['emulator', 'trigger', ...args], { LOG_LEVEL: 'silent', ...env });
}

/** The demo emulator over HTTP, its webhooks pointing at a real receiver, and an API token. */
async function demo(adminToken?: string) {
  const server = await startEmulatorServer({ seed: 'demo', ...(adminToken ? { adminToken } : {}) });
  servers.push(server);
  const receiver = await startReceiver();
  receivers.push(receiver);
  const admin: Record<string, string> = adminToken ? { authorization: `Bearer ${adminToken}` } : {};
  await fetch(`${server.url}/_emulator/tenants/demo/webhooks`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...admin },
    body: JSON.stringify({
      receptionCloseUrl: `${receiver.url}/rc`,
      shippingOrderCloseUrl: `${receiver.url}/so`,
      stockRegularizationUrl: `${receiver.url}/stock`,
      username: 'wms',
      password: 'pw',
    }),
  });
  const form = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'client_id=demo-client&client_secret=demo-secret',
  };
  const token = (
    (await (await fetch(`${server.url}/api/external/v1/auth/token`, form)).json()) as { access_token: string }
  ).access_token;
  const api = async (method: string, path: string, json: unknown) =>
    (
      await fetch(`${server.url}/api/external/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(json),
      })
    ).json();
  return { server, receiver, api };
}

describe('wms-sync emulator trigger', () => {
  it('runs a whole reception from the shell: open, lines, close, and waits for the webhook', async () => {
    const d = await demo();
    await d.api('POST', '/document', {
      externalCode: 'PO-1',
      documentNumber: 'PO-1',
      documentType: 'PURCHASE_ORDER',
      lines: [
        { lineNumber: 1, quantity: 10, productExternalCode: 'DEMO-001' },
        { lineNumber: 2, quantity: 5, productExternalCode: 'DEMO-002', lotCode: 'L2401' },
      ],
    });
    const r = await trigger([
      'reception',
      '--url',
      d.server.url,
      '--tenant',
      'demo',
      '--document',
      'PO-1',
      '--line',
      'DEMO-001:10',
      '--line',
      'DEMO-002:5:L2401',
      '--close',
      '--wait',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^reception REC\d{4}-1 opened for PO-1\n {2}received DEMO-001 × 10\n {2}received DEMO-002 × 5 lot L2401\n/,
    );
    expect(r.out).toMatch(/webhook reception-close GR\d{4}-\d+: succeeded \(HTTP 200\)/);
    expect(
      d.receiver.received.map((q) => [q.path, (q.body as { documentExternalCode: string }).documentExternalCode]),
    ).toEqual([['/rc', 'PO-1']]);
    expect(
      await d.api('POST', '/product/stock', { products: [{ product: 'DEMO-001' }, { product: 'DEMO-002' }] }),
    ).toMatchObject([{ existence: 10 }, { existence: 5 }]);
  });

  it('runs a whole shipment: pick everything ordered, pack into one packing, dispatch', async () => {
    const d = await demo();
    expect(
      (await trigger(['regularization', '--url', d.server.url, '--product', 'DEMO-001', '--quantity', '6'])).code,
    ).toBe(0);
    await d.api('POST', '/document', {
      externalCode: 'CE-1',
      documentNumber: 'CE-1',
      documentType: 'CLIENT_EXPEDITION',
      lines: [{ lineNumber: 1, quantity: 4, productExternalCode: 'DEMO-001' }],
    });
    const r = await trigger([
      'shipment',
      '--url',
      d.server.url,
      '--document',
      'CE-1',
      '--pack',
      '--weight',
      '12.5',
      '--dispatch',
      '--wait',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /shipping order SO\d{4}-1 opened for CE-1\n {2}picked DEMO-001 × 4\n {2}packed into PK\d+ \(SSCC \d{18}\)\nshipping order SO\d{4}-1 DISPATCHED/,
    );
    const close = d.receiver.received.find((q) => q.path === '/so')!.body as CloseShippingOrderPayload;
    expect(close).toMatchObject({
      documentExternalCode: 'CE-1',
      lines: [{ externalCode: 'DEMO-001', quantity: 4 }],
      packingList: [{ weight: 12.5, lines: [{ externalCode: 'DEMO-001', quantity: 4 }] }],
    });
    expect(await d.api('POST', '/product/stock', { product: 'DEMO-001' })).toMatchObject([{ existence: 2 }]);
  });

  it('regularizes stock and sends the stock webhook', async () => {
    const d = await demo();
    await trigger([
      'regularization',
      '--url',
      d.server.url,
      '--product',
      'DEMO-002',
      '--lot',
      'L2401',
      '--quantity',
      '3',
    ]);
    const r = await trigger([
      'regularization',
      '--url',
      d.server.url,
      '--product',
      'DEMO-002',
      '--lot',
      'L2401',
      '--quantity',
      '-1',
      '--wait',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('stock of DEMO-002 lot L2401 -1 in MAIN');
    expect(r.out).toMatch(/webhook stock-regularization: succeeded/);
    expect(d.receiver.received.map((q) => (q.body as { quantity: number }).quantity)).toEqual([3, -1]);
  });

  it('exit 2 for usage errors, 1 when the emulator refuses or cannot be reached; uses the admin token', async () => {
    const d = await demo('adm1n');
    const usage: string[][] = [
      [],
      ['teleport'],
      ['reception', '--url', d.server.url],
      ['reception', '--url', d.server.url, '--document', 'PO-1', '--line', 'DEMO-001'],
      ['shipment', '--url', d.server.url, '--document', 'A', '--document', 'B'],
      ['regularization', '--url', d.server.url, '--product', 'DEMO-001', '--quantity', '0'],
      ['reception', '--colour', 'red'],
    ];
    for (const args of usage) {
      const r = await trigger(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/^wms-sync emulator trigger: /);
    }
    const noToken = await trigger([
      'regularization',
      '--url',
      d.server.url,
      '--product',
      'DEMO-001',
      '--quantity',
      '1',
    ]);
    expect(noToken.code).toBe(1);
    expect(noToken.err).toContain('401 unauthorized');
    const refused = await trigger(['reception', '--url', d.server.url, '--document', 'NOPE'], {
      EMULATOR_ADMIN_TOKEN: 'adm1n',
    });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('404 document_not_found: Document "NOPE" does not exist');
    const ok = await trigger([
      'regularization',
      '--url',
      d.server.url,
      '--admin-token',
      'adm1n',
      '--product',
      'DEMO-001',
      '--quantity',
      '1',
    ]);
    expect(ok.code).toBe(0);
    const unreachable = await trigger([
      'regularization',
      '--url',
      'http://127.0.0.1:9',
      '--product',
      'DEMO-001',
      '--quantity',
      '1',
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toContain('cannot reach the emulator at http://127.0.0.1:9');
  });
});
