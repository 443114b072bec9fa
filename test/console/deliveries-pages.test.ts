import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchFeed } from '../../src/erp/delivery/dispatch.js';
import { admin } from '../admin/support.js';
import { newSecret } from '../erp/delivery/harness.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, get, type Operator, post, signInAs } from './support.js';

describe('console: ERP deliveries (list, filters, attempts, resend one, resend a filter, breaker)', () => {
  let svc: TestService;
  let op: Operator;
  const acme = testConnection('acme', { erpWebhookUrl: 'http://127.0.0.1:9/hook', erpWebhookSecret: newSecret() });
  const beta = testConnection('beta');
  const ids: Record<string, number> = {};
  const at = new Date('2026-11-26T10:00:00.000Z');
  const c = '/console/connections/acme';
  const html = async (path: string) => {
    const res = await get(svc, path, op);
    expect(res.status, path).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    // No worker runs: deliveries are made and finished through the store, as a worker would.
    svc = await startTestService({ label: 'console-deliveries', env: { ADMIN_TOKEN }, connections: [acme, beta] });
    op = await signInAs(svc);
    const { store } = svc.deps;
    const entries = [
      ['reception.closed', { documentExternalCode: 'PO-1' }],
      ['stock.adjusted', { productExternalCode: 'P1', lotCode: 'L1', quantity: 2 }],
      ['shipment.closed', { documentExternalCode: 'SO-1' }],
    ] as const;
    for (const [type, data] of entries)
      await store.feed.append({ connection: 'acme', type, dedupeKey: type, data: { ...data }, at });
    await dispatchFeed(store, { name: 'acme', erpWebhook: acme.erpWebhook! }, at);
    const claimed = await store.erpDeliveries.claim({
      connections: ['acme'],
      owner: 't',
      now: at,
      leaseUntil: new Date(at.getTime() + 60_000),
      limit: 10,
    });
    for (const { delivery } of claimed) ids[delivery.type] = delivery.id;
    const result = (id: number, outcome: 'dead' | 'delivered', status: number) => ({
      id,
      outcome,
      status,
      latencyMs: 12,
      response: outcome === 'dead' ? '{"error":"<b>unknown</b> document"}' : null,
      error: outcome === 'dead' ? `HTTP ${status}` : null,
      probe: false,
      at,
    });
    await store.erpDeliveries.finish('t', [
      result(ids['reception.closed']!, 'dead', 422),
      result(ids['stock.adjusted']!, 'dead', 400),
      result(ids['shipment.closed']!, 'delivered', 200),
    ]);
    await store.erpDeliveries.updateBreaker(
      'acme',
      () => ({ state: 'open', failures: 5, openedAt: at, nextProbeAt: new Date(at.getTime() + 60_000) }),
      at,
    );
  });
  afterAll(async () => svc.close());

  it('lists the connection’s deliveries with their state and the breaker of its endpoint', async () => {
    const page = await html(`${c}/deliveries`);
    expect(page).toContain('3 deliveries match');
    for (const id of Object.values(ids)) expect(page).toContain(`href="${c}/deliveries/${id}"`);
    expect(page).toContain('Dead: gave up');
    expect(page).toContain('Open (paused)');
    expect(page).toContain('2026-11-26 10:01:00');
    const dead = await html(`${c}/deliveries?status=dead`);
    expect(dead).toContain('2 deliveries match');
    expect(dead).not.toContain(`href="${c}/deliveries/${ids['shipment.closed']}"`);
    const byKey = await html(`${c}/deliveries?key=${encodeURIComponent('lot:P1|L1')}`);
    expect(byKey).toContain('1 delivery match');
    const bad = await get(svc, `${c}/deliveries?status=lost`, op);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('status');
    // Another connection: none of acme's deliveries, and no endpoint to break.
    const other = await html('/console/connections/beta/deliveries');
    expect(other).toContain('0 deliveries match');
    expect(other).toContain('No ERP webhook URL is set');
  });

  it('a delivery’s page: its attempts with the ERP’s answer (escaped), its body; never another connection’s', async () => {
    const page = await html(`${c}/deliveries/${ids['reception.closed']}`);
    expect(page).toContain('HTTP 422');
    expect(page).toContain('&lt;b&gt;unknown&lt;/b&gt;');
    expect(page).not.toContain('<b>unknown</b>');
    expect(page).toContain('PO-1');
    expect(page).toMatch(/<button[^>]*>Resend<\/button>/);
    expect((await get(svc, `/console/connections/beta/deliveries/${ids['reception.closed']}`, op)).status).toBe(404);
    expect((await get(svc, `${c}/deliveries/999999`, op)).status).toBe(404);
    expect((await get(svc, `${c}/deliveries/${ids['reception.closed']}`)).status).not.toBe(200);
  });

  it('resends one delivery: pending again, due now; without the CSRF token nothing changes', async () => {
    const id = ids['reception.closed']!;
    const noToken = await post(svc, `${c}/deliveries/${id}/resend`, { ...op, csrf: '' });
    expect(noToken.status).toBe(403);
    expect((await svc.deps.store.erpDeliveries.get(id))!.status).toBe('dead');
    expect((await post(svc, `/console/connections/beta/deliveries/${id}/resend`, op)).status).toBe(404);
    const res = await post(svc, `${c}/deliveries/${id}/resend`, op);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${c}/deliveries/${id}`);
    expect((await svc.deps.store.erpDeliveries.get(id))!.status).toBe('pending');
    // Pending: on its way already, nothing to resend.
    expect(await html(`${c}/deliveries/${id}`)).not.toMatch(/<button[^>]*>Resend<\/button>/);
  });

  it('resends the dead deliveries of a filter after a confirmation with the admin API’s exact count', async () => {
    const dry = await admin(svc, 'POST', '/admin/v1/deliveries/resend', {
      body: { connection: 'acme', type: 'stock.adjusted', dryRun: true },
    });
    expect(dry.body.matched).toBe(1);
    const confirm = await html(`${c}/deliveries/resend?type=stock.adjusted`);
    expect(confirm).toMatch(/This will touch <strong>1<\/strong> dead delivery/);
    expect(confirm).toContain('Resend 1 now');
    expect((await get(svc, `${c}/deliveries/resend?type=nothing`, op)).status).toBe(400);
    const res = await post(svc, `${c}/deliveries/resend`, op, { type: 'stock.adjusted' });
    expect(res.status).toBe(303);
    expect((await svc.deps.store.erpDeliveries.get(ids['stock.adjusted']!))!.status).toBe('pending');
    expect((await svc.deps.store.erpDeliveries.get(ids['shipment.closed']!))!.status).toBe('delivered');
    expect(await html(`${c}/deliveries/resend`)).toMatch(/This will touch <strong>0<\/strong> dead deliveries/);
    expect((await post(svc, `${c}/deliveries/resend`, op, { type: 'nothing' })).status).toBe(400);
  });
});
