import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAuthenticator } from '../../src/inbound/auth.js';
import { ManualClock } from '../../src/lib/clock.js';
import { loadConfig } from '../../src/lib/config.js';
import { connectionRegistry } from '../../src/lib/connection-registry.js';
import { type Listening, listen } from '../../src/lib/listen.js';
import { silentLogger } from '../../src/lib/logger.js';
import { runService } from '../../src/main.js';
import { authOf, uniquePayload } from '../inbound/support.js';
import { basicAuth, startTestService, type TestService, testConnection } from '../support/service.js';
import { tempDir } from '../support/tmp.js';

const ADMIN_TOKEN = 'admin-token-0123456789';
const METRICS_TOKEN = 'metrics-token-0123456789';

const metric = (text: string, name: string, labels: string) => {
  const m = new RegExp(`^${name}\\{${labels}\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
};

describe('/readyz tells which check failed, and why only to an operator', () => {
  it('a failing store: "failing" for everyone, the reason with ADMIN_TOKEN', async () => {
    const svc = await startTestService({ label: 'readyz-reasons', env: { ADMIN_TOKEN } });
    await svc.deps.store.close();
    const anonymous = await svc.app.request('/readyz');
    expect(anonymous.status).toBe(503);
    const body = (await anonymous.json()) as { message: string; details: { checks: Record<string, string> } };
    expect(body.details.checks).toMatchObject({ store: 'failing', connections: 'ok' });
    expect(body.message).toMatch(/^not ready: store/);
    expect(JSON.stringify(body)).not.toContain('database');

    const operator = await svc.app.request('/readyz', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const detailed = (await operator.json()) as { message: string; details: { checks: Record<string, string> } };
    expect(detailed.details.checks.store).toMatch(/database connection is not open/);
    expect(detailed.message).toMatch(/^store: /);
    // a wrong token gets the anonymous answer
    const wrong = await svc.app.request('/readyz', { headers: { authorization: 'Bearer not-the-admin-token' } });
    expect(((await wrong.json()) as { details: { checks: Record<string, string> } }).details.checks.store).toBe(
      'failing',
    );
    await svc.deps.queue.stop({ graceMs: 0 });
  });

  it('no connection configured: 503 naming the "connections" check; an operator reads which variables to set', async () => {
    const svc = await startTestService({ label: 'readyz-none', connections: [], env: { ADMIN_TOKEN } });
    try {
      const res = await svc.app.request('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        message: 'not ready: connections',
        details: { checks: { store: 'ok', queue: 'ok', storage: 'ok', connections: 'failing' } },
      });
      const operator = await svc.app.request('/readyz', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(((await operator.json()) as { message: string }).message).toMatch(
        /WMS_BASE_URL.*ERP_API_TOKEN \(or CONNECTIONS_FILE\)/,
      );
    } finally {
      await svc.close();
    }
  });
});

describe('/metrics exposure', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ label: 'metrics-token', env: { METRICS_TOKEN } });
  });
  afterAll(() => svc.close());

  it('METRICS_TOKEN: 401 without it or with a wrong one, 200 with it; failures are counted', async () => {
    expect((await svc.app.request('/metrics')).status).toBe(401);
    const wrong = await svc.app.request('/metrics', { headers: { authorization: 'Bearer wrong-wrong-wrong-wrong' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer realm="wms-sync metrics"/);
    const ok = await svc.app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(metric(await ok.text(), 'wms_sync_auth_failures_total', 'area="metrics",scheme="bearer"')).toBe(2);
  });

  it('METRICS_PORT: /metrics only on its own listener (the public port answers 404), in serve and in a worker', async () => {
    const tmp = tempDir('metrics-port');
    const base = { DATA_DIR: tmp.dir, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'silent' };
    const config = { ...loadConfig(base), connections: [testConnection()] };
    const web = await runService(config, { http: true, worker: false, logger: silentLogger() });
    try {
      expect((await fetch(`${web.http!.url}/metrics`)).status).toBe(404);
      const scraped = await fetch(`${web.metricsHttp!.url}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('wms_sync_wms_pushes');
      expect((await fetch(`${web.metricsHttp!.url}/readyz`)).status).toBe(404);
    } finally {
      await web.close();
    }
    const worker = await runService(config, { http: false, worker: true, logger: silentLogger() });
    try {
      const text = await (await fetch(`${worker.metricsHttp!.url}/metrics`)).text();
      expect(text).toContain('wms_sync_inbound_events');
      expect(text).toContain('wms_sync_wms_pushes_oldest_pending_seconds');
    } finally {
      await worker.close();
      tmp.remove();
    }
  });
});

describe('repeated authentication failures are limited per client address (TRUST_PROXY_HOPS=1)', () => {
  let svc: TestService;
  const acme = testConnection('acme');
  const clock = new ManualClock(new Date('2026-02-01T00:00:00Z'));
  beforeAll(async () => {
    svc = await startTestService({
      label: 'auth-limit',
      clock,
      connections: [acme],
      env: { ADMIN_TOKEN, AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_SECONDS: '60', TRUST_PROXY_HOPS: '1' },
    });
  });
  afterAll(() => svc.close());

  const from = (address: string, headers: Record<string, string> = {}) => ({
    ...headers,
    'x-forwarded-for': `203.0.113.7, ${address}`,
  });
  const erpGet = (address: string, token: string) =>
    svc.app.request('/erp/v1/feed', { headers: from(address, { authorization: `Bearer ${token}` }) });
  const adminGet = (address: string, token: string) =>
    svc.app.request('/admin/v1/connections', { headers: from(address, { authorization: `Bearer ${token}` }) });
  const webhook = (address: string, auth: string) =>
    svc.app.request('/webhooks/acme/stock-regularization', {
      method: 'POST',
      headers: from(address, { authorization: auth, 'content-type': 'application/json' }),
      body: JSON.stringify(uniquePayload('stock-regularization')),
    });

  for (const [area, scheme, wrong, right] of [
    ['erp', 'bearer', (a: string) => erpGet(a, 'not-the-erp-token-at-all'), (a: string) => erpGet(a, acme.erpApiToken)],
    [
      'admin',
      'bearer',
      (a: string) => adminGet(a, 'not-the-admin-token-at-all'),
      (a: string) => adminGet(a, ADMIN_TOKEN),
    ],
    [
      'webhooks',
      'basic',
      (a: string) => webhook(a, basicAuth('wms-acme', 'guess')),
      (a: string) => webhook(a, authOf(acme)),
    ],
  ] as const) {
    it(`${area} (${scheme}): 401 up to the limit, then 429 with Retry-After; a correct credential from the same address is never refused`, async () => {
      const address = `198.51.100.${area.length}`;
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await wrong(address)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const limited = await wrong(address);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await limited.json()).toMatchObject({ success: false, error: 'too_many_requests' });
      // the caller who knows the credential is not slowed by the guesser sharing its address
      expect((await right(address)).status).toBe(200);
      // another address has its own budget
      expect((await wrong('192.0.2.200')).status).toBe(401);
      // counted for each scheme and area
      const text = await (await svc.app.request('/metrics')).text();
      expect(metric(text, 'wms_sync_auth_failures_total', `area="${area}",scheme="${scheme}"`)).toBeGreaterThanOrEqual(
        7,
      );
      expect(metric(text, 'wms_sync_auth_limited_total', `area="${area}",scheme="${scheme}"`)).toBe(3);
    });
  }

  it('the budget comes back as the window passes (injected clock)', async () => {
    const address = '198.51.100.99';
    for (let i = 0; i < 3; i++) await erpGet(address, 'nope-nope-nope-nope');
    expect((await erpGet(address, 'nope-nope-nope-nope')).status).toBe(429);
    clock.advance(60_000);
    expect((await erpGet(address, 'nope-nope-nope-nope')).status).toBe(401);
  });

  it('an unknown webhook connection counts as a failure of the address like a wrong password', async () => {
    const address = '198.51.100.77';
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (
          await svc.app.request(`/webhooks/probe-${i}/reception-close`, {
            method: 'POST',
            headers: from(address, { authorization: authOf(acme), 'content-type': 'application/json' }),
            body: '{}',
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('the client address over a real socket', () => {
  let http: Listening;
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ label: 'auth-socket', env: { AUTH_FAILURE_LIMIT: '2' } });
    http = await listen(svc.app.fetch, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await http.close(0);
    await svc.close();
  });

  it('without trusted proxies X-Forwarded-For is ignored: a guesser cannot escape its budget by writing one', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${http.url}/erp/v1/feed`, {
        headers: { authorization: 'Bearer wrong-token-wrong-token', 'x-forwarded-for': `10.0.0.${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});

describe('webhook authentication does the same work for an unknown connection', () => {
  it('every connection name, known or not, is compared with the same number of candidates', () => {
    const rotating = testConnection('rotating', {
      webhookPreviousUsername: 'old',
      webhookPreviousPassword: 'old-password-123',
    });
    const auth = webhookAuthenticator(connectionRegistry([testConnection('acme'), rotating]));
    expect(auth.candidatesFor('acme')).toHaveLength(2);
    expect(auth.candidatesFor('rotating')).toHaveLength(2);
    expect(auth.candidatesFor('initech')).toHaveLength(2);
    expect(auth.candidatesFor('initech')).not.toEqual(auth.candidatesFor('acme'));
    expect('refused' in auth.authenticate('initech', authOf(testConnection('acme')))).toBe(true);
  });
});
