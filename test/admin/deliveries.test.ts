import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchFeed } from '../../src/erp/delivery/dispatch.js';
import { newSecret } from '../erp/delivery/harness.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, admin } from './support.js';

describe('admin API: ERP deliveries (list, get, resend one, resend dead by filter)', () => {
  let svc: TestService;
  const acme = testConnection('acme', { erpWebhookUrl: 'http://127.0.0.1:9/hook', erpWebhookSecret: newSecret() });
  const ids: Record<string, number> = {};
  const at = new Date('2026-11-26T10:00:00.000Z');

  beforeAll(async () => {
    // No worker runs: the deliveries are made and finished through the store, as a worker would.
    svc = await startTestService({ label: 'admin-deliveries', env: { ADMIN_TOKEN }, connections: [acme] });
    const { store } = svc.deps;
    await store.feed.append({
      connection: 'acme',
      type: 'reception.closed',
      dedupeKey: 'a',
      data: { documentExternalCode: 'PO-1' },
      at,
    });
    await store.feed.append({
      connection: 'acme',
      type: 'stock.adjusted',
      dedupeKey: 'b',
      data: { productExternalCode: 'P1', lotCode: 'L1', quantity: 2 },
      at,
    });
    await store.feed.append({
      connection: 'acme',
      type: 'shipment.closed',
      dedupeKey: 'c',
      data: { documentExternalCode: 'SO-1' },
      at,
    });
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
      response: outcome === 'dead' ? '{"error":"unknown document"}' : null,
      error: outcome === 'dead' ? `HTTP ${status}` : null,
      probe: false,
      at,
    });
    await store.erpDeliveries.finish('t', [
      result(ids['reception.closed']!, 'dead', 422),
      result(ids['stock.adjusted']!, 'dead', 400),
      result(ids['shipment.closed']!, 'delivered', 200),
    ]);
  });
  afterAll(async () => svc.close());

  it('lists deliveries newest first with their state, filtered by status and type, page by page', async () => {
    const all = await admin(svc, 'GET', '/admin/v1/deliveries?limit=2');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.deliveries.map((d: any) => d.type)).toEqual(['shipment.closed', 'stock.adjusted']);
    expect(all.body.deliveries[1]).toMatchObject({
      status: 'dead',
      attempts: 1,
      lastStatus: 400,
      orderKey: 'lot:P1|L1',
      webhookId: expect.stringMatching(/^evt_acme_\d+$/),
    });
    const next = await admin(svc, 'GET', `/admin/v1/deliveries?limit=2&before=${all.body.nextBefore}`);
    expect(next.body.deliveries.map((d: any) => d.type)).toEqual(['reception.closed']);
    expect(next.body.nextBefore).toBeNull();
    const dead = await admin(svc, 'GET', '/admin/v1/deliveries?status=dead&type=reception.closed');
    expect(dead.body).toMatchObject({ total: 1, deliveries: [{ id: ids['reception.closed'], orderKey: 'doc:PO-1' }] });
    expect((await admin(svc, 'GET', '/admin/v1/deliveries?connection=other')).body).toEqual({
      deliveries: [],
      total: 0,
      nextBefore: null,
    });
  });

  it('refuses a bad status, type, cursor or limit with 400 naming it', async () => {
    for (const [query, name] of [
      ['status=lost', 'status'],
      ['type=stock', 'type'],
      ['before=0', 'before'],
      ['limit=201', 'limit'],
      ['createdFrom=yesterday', 'createdFrom'],
    ]) {
      const res = await admin(svc, 'GET', `/admin/v1/deliveries?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'validation_failed' });
      expect(res.body.message).toContain(name);
    }
  });

  it('shows one delivery with the body the ERP receives and every attempt; 404 and 400 otherwise', async () => {
    const res = await admin(svc, 'GET', `/admin/v1/deliveries/${ids['reception.closed']}`);
    expect(res.status).toBe(200);
    expect(res.body.entry).toMatchObject({ type: 'reception.closed', data: { documentExternalCode: 'PO-1' } });
    expect(res.body.attempts).toEqual([
      {
        id: expect.any(Number),
        at: at.toISOString(),
        outcome: 'dead',
        status: 422,
        latencyMs: 12,
        response: '{"error":"unknown document"}',
        error: 'HTTP 422',
        probe: false,
      },
    ]);
    expect((await admin(svc, 'GET', '/admin/v1/deliveries/99999')).status).toBe(404);
    const bad = await admin(svc, 'GET', '/admin/v1/deliveries/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('id');
  });

  it('resends one delivery (202, pending with attempts 0); 409 while pending; 404 for no such delivery', async () => {
    const id = ids['shipment.closed'];
    const res = await admin(svc, 'POST', `/admin/v1/deliveries/${id}/resend`);
    expect(res.status).toBe(202);
    expect(res.body.delivery).toMatchObject({ id, status: 'pending', attempts: 0 });
    const again = await admin(svc, 'POST', `/admin/v1/deliveries/${id}/resend`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error: 'conflict' });
    expect((await admin(svc, 'POST', '/admin/v1/deliveries/99999/resend')).status).toBe(404);
  });

  it('resends the dead deliveries matching a filter; a dry run only counts', async () => {
    const dry = await admin(svc, 'POST', '/admin/v1/deliveries/resend', {
      body: { type: 'stock.adjusted', dryRun: true },
    });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ matched: 1, resent: 0, dryRun: true });
    const res = await admin(svc, 'POST', '/admin/v1/deliveries/resend', { body: { connection: 'acme' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ matched: 2, resent: 2, dryRun: false });
    expect(await svc.deps.store.erpDeliveries.count({ status: 'dead' })).toBe(0);
  });

  it('refuses a bulk resend body that is not JSON (400/415) or has a bad filter (400)', async () => {
    const notJson = await svc.app.request('/admin/v1/deliveries/resend', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    const text = await svc.app.request('/admin/v1/deliveries/resend', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
    const bad = await admin(svc, 'POST', '/admin/v1/deliveries/resend', { body: { type: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('type');
  });

  it('security: every delivery route needs the admin token (401 without it or with a wrong one)', async () => {
    const routes: [string, string][] = [
      ['GET', '/admin/v1/deliveries'],
      ['GET', `/admin/v1/deliveries/${ids['reception.closed']}`],
      ['POST', `/admin/v1/deliveries/${ids['reception.closed']}/resend`],
      ['POST', '/admin/v1/deliveries/resend'],
    ];
    for (const [method, path] of routes) {
      expect((await admin(svc, method, path, { headers: { authorization: '' } })).status, `${method} ${path}`).toBe(
        401,
      );
      expect(
        (
          await admin(svc, method, path, {
            headers: { authorization: 'Bearer wrong-token-0123456789' },
            ...(method === 'POST' ? { body: {} } : {}),
          })
        ).status,
        `${method} ${path}`,
      ).toBe(401);
    }
    // The ERP's own token is not an admin token.
    expect(
      (await admin(svc, 'GET', '/admin/v1/deliveries', { headers: { authorization: `Bearer ${acme.erpApiToken}` } }))
        .status,
    ).toBe(401);
  });
});
