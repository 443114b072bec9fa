import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, admin, putProduct } from './support.js';

describe('admin API: GET /admin/v1/connections/{connection}/overview', () => {
  let svc: TestService;
  const clock = new ManualClock(new Date('2026-11-20T12:00:00.000Z'));
  const acme = testConnection('acme');
  const hoursAgo = (h: number) => new Date(clock.nowMs() - h * 3_600_000);

  beforeAll(async () => {
    svc = await startTestService({
      label: 'admin-overview',
      env: { ADMIN_TOKEN },
      clock,
      connections: [acme, testConnection('beta')],
    });
    const inbox = svc.deps.store.inbox;
    const record = (kind: string, key: string, h: number, connection = 'acme') =>
      inbox.record({ connection, kind, dedupeKey: key, payload: '{}', at: hoursAgo(h) });
    await record('reception-close', 'old', 25);
    const done = await record('reception-close', 'r1', 23);
    await inbox.markProcessed(done.event.id, clock.now());
    const failed = await record('reception-close', 'r2', 1);
    await inbox.markFailed(failed.event.id, 'boom', clock.now());
    await record('stock-regularization', 's1', 0);
    await inbox.record({
      connection: 'acme',
      kind: 'stock-regularization',
      dedupeKey: 's2',
      payload: 'x',
      status: 'rejected',
      error: 'bad',
      at: clock.now(),
    });
    await record('reception-close', 'b1', 0, 'beta');
    // Refused by the ERP three days ago: waiting for an operator (ask the ERP again, or override).
    const refused = await record('reception-close', 'b-refused', 72, 'beta');
    await inbox.markRejectedByErp(refused.event.id, 'on credit hold', hoursAgo(72));
    // Quarantined two days ago: outside the 24 h counts, still waiting for an operator.
    await inbox.record({
      connection: 'acme',
      kind: 'stock-regularization',
      dedupeKey: 'q-old',
      payload: '{}',
      status: 'quarantined',
      quarantineReason: 'quantity: missing',
      at: hoursAgo(48),
    });
    for (const code of ['P-1', 'P-2', 'P-3']) await putProduct(svc, acme.erpApiToken, code);
    const p1 = (await svc.deps.store.pushes.get('acme', 'product', 'P-1'))!;
    await svc.deps.store.pushes.markFailed(p1.id, { status: 400, message: 'no' }, clock.now());
    const p2 = (await svc.deps.store.pushes.get('acme', 'product', 'P-2'))!;
    await svc.deps.store.pushes.markSynced(p2.id, p2.payloadHash, clock.now());
    const run = await svc.deps.store.reconciliation.createRun({
      connection: 'acme',
      trigger: 'schedule',
      at: hoursAgo(2),
    });
    await svc.deps.store.reconciliation.startRun(run.id, hoursAgo(2));
    await svc.deps.store.reconciliation.addItems([
      {
        runId: run.id,
        connection: 'acme',
        productExternalCode: 'P-1',
        lotCode: null,
        status: 'drift',
        delta: 3,
        at: clock.now(),
      },
    ]);
    await svc.deps.store.reconciliation.finishRun(run.id, { status: 'completed', reason: null, at: hoursAgo(2) });
  });
  afterAll(async () => svc.close());

  it('counts the last 24 h of webhooks by kind and outcome, the records by state, the last run, the queue and health', async () => {
    const res = await admin(svc, 'GET', '/admin/v1/connections/acme/overview');
    expect(res.status).toBe(200);
    const o = res.body;
    expect(o.connection).toBe('acme');
    expect(o.at).toBe(clock.now().toISOString());
    expect(o.inbound.since).toBe(hoursAgo(24).toISOString());
    const kind = (k: string) => o.inbound.kinds.find((x: any) => x.kind === k);
    expect(kind('reception-close')).toMatchObject({
      total: 2,
      counts: { processed: 1, failed: 1, received: 0, rejected: 0 },
    });
    expect(kind('stock-regularization')).toMatchObject({ total: 2, counts: { received: 1, rejected: 1 } });
    expect(kind('shipping-order-close')).toMatchObject({ total: 0 });
    expect(o.inbound.total).toBe(4);
    expect(o.inbound.totals.quarantined).toBe(0);
    expect(o.attention).toEqual({ quarantined: 1, failed: 1, rejectedByErp: 0 });
    expect(o.pushes.totals).toEqual({ pending: 1, synced: 1, failed: 1 });
    expect(o.pushes.entities.find((e: any) => e.entity === 'product')).toEqual({
      entity: 'product',
      pending: 1,
      synced: 1,
      failed: 1,
    });
    expect(o.reconciliation.last).toMatchObject({ status: 'completed', driftCount: 1 });
    // The three PUTs queued three push jobs (no worker runs here).
    expect(o.queue).toMatchObject({ waiting: 3, ready: 3, active: 0, dead: 0 });
    expect(o.queue.oldestReadyAt).not.toBeNull();
    expect(o.wms).toEqual({
      tokenRequests: 0,
      tokenFailures: 0,
      tokenExpiresInSeconds: null,
      calls: 0,
      callsUnavailable: 0,
      callsRefused: 0,
    });
    expect(o.health.store).toMatchObject({ ok: true, message: 'ok' });
    expect(o.health.queue).toMatchObject({ ok: true, message: 'ok' });
  });

  it('another connection sees only its own events and records', async () => {
    const beta = (await admin(svc, 'GET', '/admin/v1/connections/beta/overview')).body;
    expect(beta.inbound.total).toBe(1);
    expect(beta.attention).toEqual({ quarantined: 0, failed: 0, rejectedByErp: 1 });
    expect(beta.pushes.totals).toEqual({ pending: 0, synced: 0, failed: 0 });
    expect(beta.reconciliation.last).toBeNull();
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await svc.app.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(doc.paths['/admin/v1/connections/{connection}/overview']).toBeDefined();
  });
});
