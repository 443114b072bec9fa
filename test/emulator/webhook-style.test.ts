import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { styledBody } from '../../src/emulator/webhooks/style.js';
import { readStockRegularization, readWebhookPayload, WEBHOOK_KINDS, type WebhookKind } from '../../src/wms/index.js';
import { type Receiver, startReceiver } from './receiver.js';
import { call, control, setup } from './support.js';
import { ok, warehouseTenant } from './warehouse-support.js';

const fixture = (kind: WebhookKind) =>
  JSON.stringify(JSON.parse(readFileSync(new URL(`../../fixtures/webhooks/${kind}.json`, import.meta.url), 'utf8')));
const varied = (seed: number) => ({ style: 'varied' as const, seed });

describe('webhook style: the bytes of a varied webhook', () => {
  it('canonical leaves the payload as it is', () => {
    for (const kind of WEBHOOK_KINDS)
      expect(styledBody({ style: 'canonical', seed: 7 }, kind, fixture(kind))).toBe(fixture(kind));
  });

  it('the same seed writes the same payload the same way; other seeds write it otherwise', () => {
    const body = fixture('shipping-order-close');
    expect(styledBody(varied(42), 'shipping-order-close', body)).toBe(
      styledBody(varied(42), 'shipping-order-close', body),
    );
    const forms = new Set(
      Array.from({ length: 20 }, (_, seed) => styledBody(varied(seed), 'shipping-order-close', body)),
    );
    expect(forms.size).toBeGreaterThan(15);
  });

  it("property: a varied payload says exactly what the canonical one says (read by the receiver's tolerant reading)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...WEBHOOK_KINDS),
        fc.nat(),
        fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }),
        (kind, seed, when) => {
          const base = JSON.parse(fixture(kind)) as Record<string, unknown>;
          if (kind === 'stock-regularization') base.movementTime = when.toISOString();
          const canonical = JSON.stringify(base);
          const text = styledBody(varied(seed), kind, canonical);
          const read = readWebhookPayload(kind, JSON.parse(text));
          expect(read.problems).toEqual([]);
          expect(read.value).toEqual(readWebhookPayload(kind, base).value);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('over seeds, uses every alternative: date-times for dates, other offsets, compact and hour offsets, no seconds, omitted nulls, "" for text, extra members at every level, 12.0 quantities', () => {
    const seen = (kind: WebhookKind, body: string, pattern: RegExp | ((text: string) => boolean)) =>
      Array.from({ length: 200 }, (_, s) => styledBody(varied(s), kind, body)).some((t) =>
        typeof pattern === 'function' ? pattern(t) : pattern.test(t),
      );
    const reception = fixture('reception-close');
    expect(seen('reception-close', reception, /"receptionDate":"2026-11-20T/)).toBe(true);
    expect(seen('reception-close', reception, /"expirationDate":"2026-12-15T/)).toBe(true);
    expect(seen('reception-close', reception, /"lotCode":""/)).toBe(true);
    // Four lines, one with serials: a null serialNumbers left out.
    expect(seen('reception-close', reception, (t) => t.split('"serialNumbers"').length - 1 < 4)).toBe(true);
    expect(seen('reception-close', reception, /"documentMeta"|"documentVersion"|"x-document"/)).toBe(true);
    expect(seen('reception-close', reception, /"lineMeta"|"lineVersion"|"x-line"/)).toBe(true);
    expect(seen('reception-close', reception, /"quantity":\s?480\.0/)).toBe(true);
    expect(
      seen('supplier-return-close', fixture('supplier-return-close'), /"packingMeta"|"packingVersion"|"x-packing"/),
    ).toBe(true);
    expect(seen('supplier-return-close', fixture('supplier-return-close'), /"deliveryPointExternalCode":""/)).toBe(
      true,
    );
    const onTheMinute = JSON.stringify({
      productExternalCode: 'P',
      lotCode: null,
      quantity: -2,
      movementTime: '2026-11-22T15:41:00.000Z',
      warehouse: null,
    });
    expect(seen('stock-regularization', onTheMinute, /"movementTime":"2026-11-22T\d\d:\d\d[+-]/)).toBe(true);
    expect(seen('stock-regularization', onTheMinute, /"movementTime":"[^"]+[+-]\d{4}"/)).toBe(true);
    expect(seen('stock-regularization', onTheMinute, /"movementTime":"[^"]+[+-]\d\d"/)).toBe(true);
    expect(seen('stock-regularization', onTheMinute, /^(?![\s\S]*"warehouse")/)).toBe(true);
  });
});

describe('PUT/GET /_emulator/tenants/{tenant}/webhook-style', () => {
  const receivers: Receiver[] = [];
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
  });

  it('is canonical by default; PUT sets varied with a seed (default 0), GET returns it', async () => {
    const { app } = setup();
    await ok(app, 'POST', '/tenants', { id: 'acme' });
    expect((await control(app, 'GET', '/tenants/acme/webhook-style')).body).toEqual({ style: 'canonical', seed: 0 });
    expect((await control(app, 'PUT', '/tenants/acme/webhook-style', { style: 'varied', seed: 42 })).body).toEqual({
      style: 'varied',
      seed: 42,
    });
    expect((await control(app, 'GET', '/tenants/acme/webhook-style')).body).toEqual({ style: 'varied', seed: 42 });
    expect((await control(app, 'PUT', '/tenants/acme/webhook-style', { style: 'varied' })).body).toEqual({
      style: 'varied',
      seed: 0,
    });
  });

  it('400 for an unknown style, a bad seed or an unknown member; 404 for an unknown tenant', async () => {
    const { app } = setup();
    await ok(app, 'POST', '/tenants', { id: 'acme' });
    for (const body of [
      { style: 'random' },
      { style: 'varied', seed: -1 },
      { style: 'varied', seed: 1.5 },
      { style: 'varied', colour: 'red' },
      {},
    ]) {
      expect((await control(app, 'PUT', '/tenants/acme/webhook-style', body)).status).toBe(400);
    }
    expect((await control(app, 'PUT', '/tenants/nobody/webhook-style', { style: 'varied' })).status).toBe(404);
    expect((await control(app, 'GET', '/tenants/nobody/webhook-style')).status).toBe(404);
  });

  it("is behind the control API's admin token like every control route", async () => {
    const { app } = setup({ adminToken: 'admin-secret-123' });
    expect((await call(app, 'GET', '/_emulator/tenants/acme/webhook-style')).status).toBe(401);
    expect(
      (await call(app, 'PUT', '/_emulator/tenants/acme/webhook-style', { json: { style: 'varied' }, token: 'wrong' }))
        .status,
    ).toBe(401);
  });

  it('varied webhooks carry the variant, recorded in the webhook log; a tenant reset keeps the style', async () => {
    const env = await warehouseTenant();
    const receiver = await startReceiver();
    receivers.push(receiver);
    await ok(env.app, 'PUT', '/tenants/acme/webhooks', { stockRegularizationUrl: `${receiver.url}/hooks/stock` });
    await ok(env.app, 'PUT', '/tenants/acme/webhook-style', { style: 'varied', seed: 3 });
    for (let i = 1; i <= 6; i++)
      await ok(env.app, 'POST', '/tenants/acme/stock/regularizations', { productExternalCode: 'P1', quantity: i });
    await env.emulator.state.webhooks.settled('acme');
    const bodies = receiver.received.map((r) => r.text);
    expect(bodies).toHaveLength(6);
    expect(bodies.some((b) => !b.includes('"movementTime":"2025-03-01T12:00:00.000Z"'))).toBe(true);
    for (const b of bodies)
      expect(readStockRegularization(JSON.parse(b)).value?.movementTime).toBe('2025-03-01T12:00:00.000Z');
    await ok(env.app, 'POST', '/tenants/acme/reset');
    expect((await control(env.app, 'GET', '/tenants/acme/webhook-style')).body).toEqual({ style: 'varied', seed: 3 });
  });
});
