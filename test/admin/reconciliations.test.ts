import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { ADMIN_TOKEN, admin } from './support.js';

describe('admin API: reconciliation runs (list, start, get) and the feed', () => {
  let svc: TestService;
  const at = new Date('2026-11-20T10:00:00.000Z');
  const runs: number[] = [];

  beforeAll(async () => {
    svc = await startTestService({
      label: 'admin-reconcile',
      env: { ADMIN_TOKEN },
      connections: [testConnection('acme'), testConnection('beta')],
    });
    const rec = svc.deps.store.reconciliation;
    for (const drift of [0, 2, 1]) {
      const run = await rec.createRun({ connection: 'acme', trigger: 'schedule', at });
      await rec.startRun(run.id, at);
      await rec.addItems(
        Array.from({ length: drift }, (_, i) => ({
          runId: run.id,
          connection: 'acme',
          productExternalCode: `P-${i}`,
          lotCode: null,
          status: 'drift' as const,
          wmsExistence: 10,
          expectedExistence: 12,
          delta: -2,
          at,
        })),
      );
      await rec.finishRun(run.id, { status: 'completed', reason: null, at });
      runs.push(run.id);
    }
    const other = await rec.createRun({ connection: 'beta', trigger: 'api', at });
    runs.push(other.id);
    for (let i = 0; i < 5; i++)
      await svc.deps.store.feed.append({
        connection: 'acme',
        type: 'stock.adjusted',
        dedupeKey: `a${i}`,
        data: { i },
        at,
      });
    await svc.deps.store.feed.append({
      connection: 'beta',
      type: 'stock.adjusted',
      dedupeKey: 'b0',
      data: {},
      at,
    });
  });
  afterAll(async () => svc.close());

  it('lists the runs newest first with their drift counts, page by page, one connection only', async () => {
    const first = await admin(svc, 'GET', '/admin/v1/connections/acme/reconciliations?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.runs.map((r: any) => [r.id, r.status, r.driftCount])).toEqual([
      [runs[2], 'completed', 1],
      [runs[1], 'completed', 2],
    ]);
    expect(first.body.runs[0]).not.toHaveProperty('items');
    const second = await admin(
      svc,
      'GET',
      `/admin/v1/connections/acme/reconciliations?limit=2&before=${first.body.nextBefore}`,
    );
    expect(second.body.runs.map((r: any) => r.id)).toEqual([runs[0]]);
    expect(second.body.nextBefore).toBeNull();
    expect((await admin(svc, 'GET', '/admin/v1/connections/acme/reconciliations?limit=0')).status).toBe(400);
  });

  it('gets a run with its drift table; a run of another connection is 404', async () => {
    const res = await admin(svc, 'GET', `/admin/v1/connections/acme/reconciliations/${runs[1]}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => [i.productExternalCode, i.status, i.delta])).toEqual([
      ['P-0', 'drift', -2],
      ['P-1', 'drift', -2],
    ]);
    expect((await admin(svc, 'GET', `/admin/v1/connections/acme/reconciliations/${runs[3]}`)).status).toBe(404);
    expect((await admin(svc, 'GET', '/admin/v1/connections/acme/reconciliations/abc')).status).toBe(400);
  });

  it('starts a run (202 queued), and answers the waiting run (200) when asked again', async () => {
    const first = await admin(svc, 'POST', '/admin/v1/connections/acme/reconciliations');
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ status: 'queued' });
    const again = await admin(svc, 'POST', '/admin/v1/connections/acme/reconciliations');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect((await svc.deps.store.reconciliation.getRun(first.body.id))?.trigger).toBe('api');
  });

  it('feed: the latest entries newest first, then older with before', async () => {
    const latest = await admin(svc, 'GET', '/admin/v1/connections/acme/feed?limit=3');
    expect(latest.status).toBe(200);
    expect(latest.body.order).toBe('newest-first');
    expect(latest.body.entries.map((e: any) => e.data.i)).toEqual([4, 3, 2]);
    const older = await admin(svc, 'GET', `/admin/v1/connections/acme/feed?limit=3&before=${latest.body.nextBefore}`);
    expect(older.body.entries.map((e: any) => e.data.i)).toEqual([1, 0]);
    expect(older.body.nextBefore).toBeNull();
  });

  it('feed with after: exactly what the ERP reads from GET /erp/v1/feed', async () => {
    const erp = svc.deps.connections.get('acme')!.erpApiToken;
    const asErp = (await (
      await svc.app.request('/erp/v1/feed?after=0&limit=2', { headers: { authorization: `Bearer ${erp}` } })
    ).json()) as { entries: unknown[]; next: number };
    const res = await admin(svc, 'GET', '/admin/v1/connections/acme/feed?after=0&limit=2');
    expect(res.body).toEqual({ order: 'oldest-first', entries: asErp.entries, next: asErp.next, nextBefore: null });
  });

  it('feed refuses after with before, and bad cursors, with 400', async () => {
    const both = await admin(svc, 'GET', '/admin/v1/connections/acme/feed?after=1&before=3');
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('do not go together');
    expect((await admin(svc, 'GET', '/admin/v1/connections/acme/feed?after=-1')).status).toBe(400);
    expect((await admin(svc, 'GET', '/admin/v1/connections/acme/feed?before=x')).status).toBe(400);
  });
});
