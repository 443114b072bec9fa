import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/lib/config.js';
import { runMain } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// Per-connection ERP_WEBHOOK_URL / _SECRET / _EVENTS / ERP_CLOSE_ACK, the same in
// CONNECTIONS_FILE in camelCase; secrets in the Standard Webhooks form.
const base = {
  WMS_BASE_URL: 'https://wms.example.com',
  WMS_CLIENT_ID: 'client',
  WMS_CLIENT_SECRET: 'secret',
  WEBHOOK_USERNAME: 'wms',
  WEBHOOK_PASSWORD: 'password-1',
  ERP_API_TOKEN: 'erp-token-0123456789',
};
const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const previous = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('ERP webhook settings', () => {
  const tmp = tempDir('config-erp-webhook');
  afterAll(() => tmp.remove());

  it('are off by default: the ERP polls, close documents are acknowledged asynchronously', () => {
    const [c] = loadConfig(base).connections;
    expect(c!.erpWebhook).toBeUndefined();
    expect(c!.erpCloseAck).toBe('async');
  });

  it('read the URL, both secrets (current first) and the event filter from the environment', () => {
    const [c] = loadConfig({
      ...base,
      ERP_WEBHOOK_URL: 'https://erp.example.com/hooks',
      ERP_WEBHOOK_SECRET: secret,
      ERP_WEBHOOK_PREVIOUS_SECRET: previous,
      ERP_WEBHOOK_EVENTS: ' reception.closed, stock.adjusted ',
      ERP_CLOSE_ACK: 'sync',
    }).connections;
    expect(c!.erpWebhook).toEqual({
      url: 'https://erp.example.com/hooks',
      secrets: [secret, previous],
      events: ['reception.closed', 'stock.adjusted'],
    });
    expect(c!.erpCloseAck).toBe('sync');
  });

  it('push every feed type when no filter is given', () => {
    const [c] = loadConfig({
      ...base,
      ERP_WEBHOOK_URL: 'http://127.0.0.1:9000/',
      ERP_WEBHOOK_SECRET: secret,
    }).connections;
    expect(c!.erpWebhook!.events).toEqual([
      'reception.closed',
      'client_return.closed',
      'shipment.closed',
      'supplier_return.closed',
      'stock.adjusted',
      'stock.drift',
    ]);
  });

  it('take camelCase keys (events as a list) in CONNECTIONS_FILE', () => {
    const file = join(tmp.dir, 'connections.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          name: 'acme',
          wmsBaseUrl: 'https://wms.example.com',
          wmsClientId: 'c',
          wmsClientSecret: 's',
          webhookUsername: 'u',
          webhookPassword: 'password-1',
          erpApiToken: 'erp-token-0123456789',
          erpWebhookUrl: 'https://erp.example.com/hooks',
          erpWebhookSecret: secret,
          erpWebhookEvents: ['shipment.closed'],
          erpCloseAck: 'sync',
        },
      ]),
    );
    const [c] = loadConfig({ CONNECTIONS_FILE: file }).connections;
    expect(c!.erpWebhook).toEqual({
      url: 'https://erp.example.com/hooks',
      secrets: [secret],
      events: ['shipment.closed'],
    });
    expect(c!.erpCloseAck).toBe('sync');
  });

  it.each([
    [
      { ERP_WEBHOOK_URL: 'ftp://erp', ERP_WEBHOOK_SECRET: secret },
      /^Invalid configuration: ERP_WEBHOOK_URL: expected an http\(s\) URL/,
    ],
    [
      { ERP_WEBHOOK_URL: 'https://erp.example.com' },
      /^Invalid configuration: ERP_WEBHOOK_SECRET: required when the ERP webhook URL is set/,
    ],
    [
      { ERP_WEBHOOK_URL: 'https://erp.example.com', ERP_WEBHOOK_SECRET: 'plain-secret' },
      /^Invalid configuration: ERP_WEBHOOK_SECRET: expected a Standard Webhooks secret/,
    ],
    [
      { ERP_WEBHOOK_URL: 'https://erp.example.com', ERP_WEBHOOK_SECRET: 'whsec_c2hvcnQ=' },
      /^Invalid configuration: ERP_WEBHOOK_SECRET: expected a Standard Webhooks secret/,
    ],
    [
      {
        ERP_WEBHOOK_URL: 'https://erp.example.com',
        ERP_WEBHOOK_SECRET: secret,
        ERP_WEBHOOK_EVENTS: 'reception.closed,parcel.lost',
      },
      /^Invalid configuration: ERP_WEBHOOK_EVENTS: expected feed types among/,
    ],
    [
      { ERP_WEBHOOK_URL: 'https://erp.example.com', ERP_WEBHOOK_SECRET: secret, ERP_WEBHOOK_EVENTS: ' , ' },
      /^Invalid configuration: ERP_WEBHOOK_EVENTS: expected at least one feed type/,
    ],
    [{ ERP_WEBHOOK_SECRET: secret }, /^Invalid configuration: ERP_WEBHOOK_SECRET: needs the ERP webhook URL/],
    [{ ERP_CLOSE_ACK: 'sync' }, /^Invalid configuration: ERP_CLOSE_ACK: sync needs the ERP webhook URL/],
    [{ ERP_CLOSE_ACK: 'later' }, /^Invalid configuration: ERP_CLOSE_ACK: /],
  ])('refuse %o with one line naming the variable', (extra, message) => {
    expect(failure({ ...base, ...(extra as Record<string, string>) })).toMatch(message);
  });
});

describe('wms-sync connections secret', () => {
  it('prints a fresh secret that standardwebhooks accepts and the config takes', async () => {
    const a = await runMain(['connections', 'secret']);
    const b = await runMain(['connections', 'secret']);
    expect(a.code).toBe(0);
    const value = a.out.trim();
    expect(value).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(b.out.trim()).not.toBe(value);
    const wh = new Webhook(value);
    const signature = wh.sign('msg_1', new Date(), '{}');
    expect(() =>
      wh.verify('{}', {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': signature,
      }),
    ).not.toThrow();
    expect(
      loadConfig({ ...base, ERP_WEBHOOK_URL: 'https://erp.example.com', ERP_WEBHOOK_SECRET: value }).connections[0]!
        .erpWebhook!.secrets,
    ).toEqual([value]);
  });

  it('refuses anything but `secret` with a usage error (exit 2)', async () => {
    const r = await runMain(['connections', 'rotate']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/expected "secret"/);
    expect(r.out).toBe('');
  });
});
