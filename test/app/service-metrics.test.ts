import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { AppError } from '../../src/lib/errors.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { sample } from '../support/metrics.js';
import { basicAuth, startTestService, type TestService, testConnection } from '../support/service.js';

describe('metrics of the process: HTTP answers, readiness, queue age, WMS token failures', () => {
  let svc: TestService;
  let wms: RunningEmulator;
  const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
  const metrics = async () => (await svc.app.request('/metrics')).text();

  beforeAll(async () => {
    wms = await startEmulator();
    const acme = wmsConnection('acme', wms.url, await wms.tenant('acme'));
    svc = await startTestService({ label: 'service-metrics', connections: [acme], clock });
    svc.app.get('/test/crash', () => {
      throw new Error('boom');
    });
    svc.app.get('/test/busy', () => {
      throw new AppError(503, 'unavailable', 'try later');
    });
  });
  afterAll(async () => {
    await svc?.close();
    await wms?.close();
  });

  it('counts answers by route pattern and status, never by concrete path (the label set stays bounded)', async () => {
    const acme = svc.deps.connections.get('acme')!;
    const cred = acme.webhookCredentials[0]!;
    const hook = (auth: string) =>
      svc.app.request('/webhooks/acme/reception-close', {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ closingDocumentCode: 'X' }),
      });
    expect((await hook(basicAuth(cred.username, 'wrong-password'))).status).toBe(401);
    expect((await hook(basicAuth(cred.username, 'wrong-password'))).status).toBe(401);
    expect((await svc.app.request('/no/such/route/123')).status).toBe(404);
    expect((await svc.app.request('/test/crash')).status).toBe(500);
    expect((await svc.app.request('/test/busy')).status).toBe(503);

    const text = await metrics();
    // One route per webhook kind: the kind is part of the pattern, the connection is not.
    const route = '/webhooks/:connection/reception-close';
    expect(sample(text, 'wms_sync_http_responses_total', { route, status: '401' })).toBe(2);
    expect(sample(text, 'wms_sync_http_responses_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'wms_sync_http_responses_total', { route: '/test/crash', status: '500' })).toBe(1);
    expect(sample(text, 'wms_sync_http_responses_total', { route: '/test/busy', status: '503' })).toBe(1);
    expect(text).not.toContain('route="/webhooks/acme');
    expect(text).not.toContain('/no/such/route');
  });

  it('shows each readiness check as 1 while it passes', async () => {
    const text = await metrics();
    for (const check of ['store', 'queue', 'connections'])
      expect(sample(text, 'wms_sync_ready', { check }), check).toBe(1);
  });

  it('shows how long token requests have kept failing, back to 0 after one succeeds', async () => {
    const client = svc.deps.wms.get(svc.deps.connections.get('acme')!);
    await wms.control('POST', '/faults', { path: '/api/external/v1/auth/token', status: 503, count: 2 });
    await expect(client.tokens.token()).rejects.toThrow();
    clock.advance(240_000);
    await expect(client.tokens.token()).rejects.toThrow();
    clock.advance(60_000);
    expect(sample(await metrics(), 'wms_sync_wms_token_failing_seconds', { connection: 'acme' })).toBe(300);
    await client.tokens.token();
    expect(sample(await metrics(), 'wms_sync_wms_token_failing_seconds', { connection: 'acme' })).toBe(0);
  });
});

describe('the job queue gauges', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ label: 'service-metrics-queue' });
  });
  afterAll(() => svc?.close());

  it('shows how long the oldest ready job has waited for a worker, 0 when none waits', async () => {
    const metrics = async () => (await svc.app.request('/metrics')).text();
    expect(sample(await metrics(), 'wms_sync_queue_oldest_ready_seconds')).toBe(0);
    await svc.deps.queue.createQueue('metrics-test');
    // A job due ten minutes ago that no worker takes: it has waited that long.
    await svc.deps.queue.send('metrics-test', { n: 1 }, { startAfter: new Date(svc.deps.clock.nowMs() - 600_000) });
    await svc.deps.queue.send('metrics-test', { n: 2 }, { startAfter: 3600 });
    const text = await metrics();
    expect(sample(text, 'wms_sync_queue_ready_jobs')).toBe(1);
    expect(sample(text, 'wms_sync_queue_oldest_ready_seconds')).toBeGreaterThanOrEqual(600);
    expect(sample(text, 'wms_sync_queue_oldest_ready_seconds')).toBeLessThan(900);
  });
});

describe('readiness gauge of a service without a connection', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ label: 'service-metrics-unready', connections: [] });
  });
  afterAll(() => svc?.close());

  it('shows the failing check as 0 and the others as 1', async () => {
    const text = await (await svc.app.request('/metrics')).text();
    expect(sample(text, 'wms_sync_ready', { check: 'connections' })).toBe(0);
    expect(sample(text, 'wms_sync_ready', { check: 'store' })).toBe(1);
  });
});

describe('the metrics listener of METRICS_PORT', () => {
  it('counts its own answers too, and never a token-less scrape as success when METRICS_TOKEN is set', async () => {
    const { metricsApp } = await import('../../src/metrics-routes.js');
    const svc = await startTestService({
      label: 'service-metrics-port',
      connections: [testConnection()],
      env: { METRICS_TOKEN: 'm'.repeat(24) },
    });
    try {
      const app = metricsApp(svc.deps);
      expect((await app.request('/metrics')).status).toBe(401);
      const res = await app.request('/metrics', { headers: { authorization: `Bearer ${'m'.repeat(24)}` } });
      expect(res.status).toBe(200);
      expect(sample(await res.text(), 'wms_sync_http_responses_total', { route: '/metrics', status: '401' })).toBe(1);
    } finally {
      await svc.close();
    }
  });
});
