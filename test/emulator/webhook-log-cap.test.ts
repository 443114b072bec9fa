import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from './receiver.js';
import { ok, warehouseTenant } from './warehouse-support.js';

const T = '/tenants/acme';
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

/** The webhook log used to keep every request for ever; it is capped per tenant (EMULATOR_WEBHOOK_LOG_MAX). */
describe('the webhook log is capped', () => {
  it('keeps the newest finished webhooks of a tenant, at most the cap (plus a tenth between trims)', async () => {
    const env = await warehouseTenant({ webhookLogMax: 20 });
    const receiver = await startReceiver();
    receivers.push(receiver);
    await ok(env.app, 'PUT', `${T}/webhooks`, { stockRegularizationUrl: `${receiver.url}/stock` });
    for (let i = 1; i <= 45; i++) {
      await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: i });
      await env.emulator.state.webhooks.settled('acme');
    }
    expect(receiver.received).toHaveLength(45);
    const log = await ok<{ id: number; status: string; request: { body: { quantity: number } } }[]>(
      env.app,
      'GET',
      `${T}/webhook-log`,
    );
    expect(log.length).toBeGreaterThanOrEqual(20);
    expect(log.length).toBeLessThanOrEqual(22);
    // the newest are the ones kept
    expect(log.at(-1)!.request.body.quantity).toBe(45);
    expect(log.every((d) => d.status === 'succeeded')).toBe(true);
  });
});
