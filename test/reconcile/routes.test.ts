import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionConfig } from '../../src/lib/connections.js';
import { erp } from '../push/support.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';
import { RECONCILE_TEST_ENV } from './harness.js';

describe('POST /erp/v1/reconciliations and GET /erp/v1/reconciliations/{id}', () => {
  let wms: RunningEmulator;
  let svc: TestService;
  let acme: ConnectionConfig;
  let beta: ConnectionConfig;

  const finished = (id: number) =>
    until(
      async () => {
        const res = await erp(svc.app, acme, 'GET', `/erp/v1/reconciliations/${id}`);
        return ['completed', 'partial', 'failed'].includes(res.body.status) ? res.body : undefined;
      },
      { message: `run ${id} finished` },
    );

  beforeAll(async () => {
    wms = await startEmulator();
    acme = wmsConnection('acme', wms.url, await wms.tenant('acme'));
    beta = wmsConnection('beta', wms.url, await wms.tenant('beta'));
    svc = await startTestService({
      label: 'reconcile-routes',
      connections: [acme, beta],
      worker: true,
      env: { ...RECONCILE_TEST_ENV, RECONCILE_SETTLE_SECONDS: '0', BODY_LIMIT_BYTES: '1024' },
    });
  });
  afterAll(async () => {
    await svc.close();
    await wms.close();
  });

  describe('happy', () => {
    it('POST queues a run (202 {id}); GET follows it to completed, with the drift found as items', async () => {
      // This tenant has no webhook URL configured: the regularization is never announced, so it is drift.
      const token = (await (
        await fetch(`${wms.url}/api/external/v1/auth/token`, {
          method: 'POST',
          body: new URLSearchParams({ client_id: acme.wms.clientId, client_secret: acme.wms.clientSecret }),
        })
      ).json()) as { access_token: string };
      const created = await fetch(`${wms.url}/api/external/v1/product`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ externalCode: 'R-1', description: 'Routes product', withLots: true }),
      });
      expect(created.status).toBe(200);
      expect(
        (
          await wms.control('POST', '/tenants/acme/stock/regularizations', {
            productExternalCode: 'R-1',
            quantity: 12,
            lotCode: 'L9',
          })
        ).status,
      ).toBe(200);

      const res = await erp(svc.app, acme, 'POST', '/erp/v1/reconciliations');
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ id: expect.any(Number), status: 'queued' });
      const run = await finished(res.body.id);
      expect(run).toMatchObject({
        id: res.body.id,
        connection: 'acme',
        trigger: 'api',
        status: 'completed',
        reason: null,
        productsTotal: 1,
        productsChecked: 1,
        rowsChecked: 1,
        rowsRechecked: 1,
        driftCount: 1,
        requests: 3,
        nextItemsAfter: null,
      });
      expect(Date.parse(run.startedAt)).toBeLessThanOrEqual(Date.parse(run.finishedAt));
      expect(run.items).toEqual([
        {
          id: expect.any(Number),
          productExternalCode: 'R-1',
          lotCode: 'L9',
          status: 'drift',
          wms: { existence: 12, available: 12 },
          expected: { existence: 0, baseline: null, movements: 0 },
          delta: 12,
          observedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ]);
    });

    it('an empty JSON object is accepted as a body; a request while a run waits answers that run (200)', async () => {
      // Hold the worker's next run: the one waiting is answered until it starts.
      const fault = await wms.control('POST', '/faults', {
        path: '/api/external/v1/product-all-external-codes',
        latencyMs: 600,
        count: 1,
      });
      expect(fault.status).toBe(201);
      const first = await erp(svc.app, acme, 'POST', '/erp/v1/reconciliations', { json: {} });
      expect(first.status).toBe(202);
      await until(
        async () =>
          (await erp(svc.app, acme, 'GET', `/erp/v1/reconciliations/${first.body.id}`)).body.status === 'running',
      );
      const second = await erp(svc.app, acme, 'POST', '/erp/v1/reconciliations', { json: {} });
      const third = await erp(svc.app, acme, 'POST', '/erp/v1/reconciliations');
      expect([second.status, third.status]).toEqual([202, 200]);
      expect(third.body).toEqual({ id: second.body.id, status: 'queued' });
      await finished(first.body.id);
      expect((await finished(second.body.id)).status).toBe('completed');
    });

    it('items page with itemsAfter and itemsLimit; a not-found item has no figures', async () => {
      const { store } = svc.deps;
      const run = await store.reconciliation.createRun({ connection: 'acme', trigger: 'cli', at: new Date() });
      await store.reconciliation.startRun(run.id, new Date());
      await store.reconciliation.addItems([
        ...['A', 'B', 'C', 'D'].map((p, i) => ({
          runId: run.id,
          connection: 'acme',
          productExternalCode: p,
          lotCode: null,
          status: 'drift' as const,
          wmsExistence: i,
          expectedExistence: 0,
          baselineExistence: 0,
          movements: 0,
          delta: i,
          observedAt: new Date(),
          at: new Date(),
        })),
        {
          runId: run.id,
          connection: 'acme',
          productExternalCode: 'GONE',
          lotCode: null,
          status: 'not_found',
          at: new Date(),
        },
      ]);
      await store.reconciliation.finishRun(run.id, { status: 'completed', reason: null, at: new Date() });
      const seen: any[] = [];
      let after: number | null = 0;
      let pages = 0;
      while (after !== null) {
        const res: { status: number; body: any } = await erp(
          svc.app,
          acme,
          'GET',
          `/erp/v1/reconciliations/${run.id}?itemsLimit=2&itemsAfter=${after}`,
        );
        expect(res.status).toBe(200);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.items);
        after = res.body.nextItemsAfter;
        pages += 1;
      }
      expect(pages).toBe(3);
      expect(seen.map((i) => i.productExternalCode)).toEqual(['A', 'B', 'C', 'D', 'GONE']);
      expect(seen.at(-1)).toMatchObject({
        status: 'not_found',
        lotCode: null,
        wms: null,
        expected: null,
        delta: null,
        observedAt: null,
      });
      expect((await erp(svc.app, acme, 'GET', `/erp/v1/reconciliations/${run.id}`)).body).toMatchObject({
        driftCount: 4,
        notFoundCount: 1,
        trigger: 'cli',
      });
    });

    it('both routes are in the OpenAPI document behind erpBearer', async () => {
      const doc = (await (await svc.app.request('/openapi.json')).json()) as {
        paths: Record<string, Record<string, { security?: unknown }>>;
      };
      expect(doc.paths['/erp/v1/reconciliations']?.post?.security).toEqual([{ erpBearer: [] }]);
      expect(doc.paths['/erp/v1/reconciliations/{id}']?.get?.security).toEqual([{ erpBearer: [] }]);
    });
  });

  describe('errors', () => {
    it.each([
      ['abc', /^id: expected a positive integer$/],
      ['0', /^id: expected a positive integer$/],
      ['1?itemsLimit=0', /^itemsLimit: expected an integer from 1 to 1000$/],
      ['1?itemsLimit=5000', /^itemsLimit: expected an integer from 1 to 1000$/],
      ['1?itemsLimit=many', /^itemsLimit: expected an integer from 1 to 1000$/],
      ['1?itemsAfter=-1', /^itemsAfter: expected a non-negative integer$/],
    ])('GET /erp/v1/reconciliations/%s → 400 naming the parameter (once)', async (path, message) => {
      const res = await erp(svc.app, acme, 'GET', `/erp/v1/reconciliations/${path}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: 'validation_failed',
        message: expect.stringMatching(message),
        requestId: expect.any(String),
      });
    });

    it('GET of a run that does not exist → 404', async () => {
      const res = await erp(svc.app, acme, 'GET', '/erp/v1/reconciliations/987654321');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        success: false,
        error: 'not_found',
        message: 'No reconciliation run 987654321 for this connection',
      });
    });

    it('POST with broken JSON → 400, another content type → 415, unknown members → 400, an oversized body → 413; nothing is queued', async () => {
      const before = (await svc.deps.store.reconciliation.listRuns('acme', { limit: 1 }))[0]?.id;
      const broken = await erp(svc.app, acme, 'POST', '/erp/v1/reconciliations', { body: '{"products": [' });
      expect(broken.status).toBe(400);
      expect(broken.body).toMatchObject({ error: 'malformed_json' });
      const text = await erp(svc.app, acme, 'POST', '/erp/v1/reconciliations', {
        body: 'now please',
        contentType: 'text/plain',
      });
      expect(text.status).toBe(415);
      expect(text.body).toMatchObject({ error: 'unsupported_media_type' });
      const unknown = await erp(svc.app, acme, 'POST', '/erp/v1/reconciliations', { json: { products: ['A'] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ error: 'validation_failed', message: expect.stringContaining('products') });
      const big = await erp(svc.app, acme, 'POST', '/erp/v1/reconciliations', { json: { pad: 'x'.repeat(2048) } });
      expect(big.status).toBe(413);
      expect((await svc.deps.store.reconciliation.listRuns('acme', { limit: 1 }))[0]?.id).toBe(before);
    });
  });

  describe('security', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a wrong bearer token', 'Bearer not-a-token-of-any-connection'],
      ['Basic credentials', `Basic ${Buffer.from('wms:secret').toString('base64')}`],
    ])('%s → 401 with a Bearer challenge, on both routes', async (_label, authorization) => {
      for (const [method, path] of [
        ['POST', '/erp/v1/reconciliations'],
        ['GET', '/erp/v1/reconciliations/1'],
      ] as const) {
        const res = await svc.app.request(path, { method, headers: authorization ? { authorization } : {} });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="wms-sync ERP API"/);
        expect(await res.json()).toMatchObject({ success: false, error: 'unauthorized' });
      }
    });

    it('the token decides the connection: another connection’s run is 404, and a POST only ever queues the caller’s', async () => {
      const mine = await erp(svc.app, beta, 'POST', '/erp/v1/reconciliations');
      expect(mine.status).toBe(202);
      expect((await svc.deps.store.reconciliation.getRun(mine.body.id))?.connection).toBe('beta');
      const theirs = await erp(svc.app, acme, 'GET', `/erp/v1/reconciliations/${mine.body.id}`);
      expect(theirs.status).toBe(404);
      expect((await erp(svc.app, beta, 'GET', `/erp/v1/reconciliations/${mine.body.id}`)).status).toBe(200);
    });
  });
});
