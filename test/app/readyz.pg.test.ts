import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/lib/config.js';
import { silentLogger } from '../../src/lib/logger.js';
import { openDeps } from '../../src/main.js';
import { product } from '../push/support.js';
import { nextEvent } from '../queue/events.js';
import { createTestSchema } from '../support/pg.js';
import { type TestService, testConnection } from '../support/service.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/wait.js';

describe('readiness on Postgres when the database goes away and comes back', () => {
  const proxy = new TcpProxy('127.0.0.1', 5432);
  const acme = testConnection('acme');
  const ADMIN_TOKEN = 'admin-token-0123456789';
  let svc: TestService;
  let dropSchema: () => Promise<void>;

  beforeAll(async () => {
    await proxy.start();
    const db = await createTestSchema('readyz');
    dropSchema = db.drop;
    const url = new URL(db.url);
    url.port = String(proxy.port);
    const config = {
      ...loadConfig({ DATABASE_URL: url.toString(), DATABASE_SCHEMA: db.schema, LOG_LEVEL: 'silent', ADMIN_TOKEN }),
      connections: [acme],
    };
    const deps = await openDeps(config, {
      logger: silentLogger(),
      queueTuning: { pgboss: { maintenanceIntervalSeconds: 1 } },
    });
    svc = {
      deps,
      app: buildApp(deps),
      close: async () => {
        await deps.queue.stop({ graceMs: 1000 });
        await deps.store.close();
      },
    };
  });
  afterAll(async () => {
    await svc.close();
    await proxy.stop();
    await dropSchema();
  });

  it('answers 200, then 503 while Postgres is unreachable, then 200 again and processes jobs', async () => {
    expect((await svc.app.request('/readyz')).status).toBe(200);

    await proxy.cut();
    const down = await svc.app.request('/readyz');
    expect(down.status).toBe(503);
    const body = (await down.json()) as { details: { checks: Record<string, string> } };
    expect(body.details.checks.store).not.toBe('ok');
    expect((await svc.app.request('/healthz')).status).toBe(200);

    await proxy.restore();
    await until(async () => (await svc.app.request('/readyz')).status === 200, {
      timeoutMs: 15_000,
      message: 'ready again',
    });

    const done = nextEvent(svc.deps.queue, 'completed', (e) => e.name === 'after-outage');
    await svc.deps.queue.work('after-outage', { pollIntervalMs: 100 }, async () => undefined);
    await svc.deps.queue.send('after-outage', { ok: true });
    await done;
  });

  const erp = (method: string, path: string, json?: unknown) =>
    svc.app.request(path, {
      method,
      headers: { authorization: `Bearer ${acme.erpApiToken}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      ...(json ? { body: JSON.stringify(json) } : {}),
    });

  it('answers 503 with Retry-After (not 500) while the store is unreachable, and works again after', async () => {
    expect((await erp('GET', '/erp/v1/feed')).status).toBe(200);
    await proxy.cut();
    try {
      for (const res of [
        await erp('GET', '/erp/v1/feed'),
        await erp('PUT', '/erp/v1/products/P-OUT', product('P-OUT')),
        await erp('GET', '/erp/v1/products/P-OUT'),
      ]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        const body = (await res.json()) as Record<string, unknown>;
        expect(body).toMatchObject({ success: false, error: 'unavailable' });
        // nothing about where the database is
        expect(JSON.stringify(body)).not.toContain(String(proxy.port));
      }
      // /readyz names the failing check; only an operator reads the reason (which names the address)
      const anonymous = await (await svc.app.request('/readyz')).text();
      expect(anonymous).toContain('"store":"failing"');
      expect(anonymous).not.toContain(String(proxy.port));
      const operator = await (
        await svc.app.request('/readyz', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).text();
      expect(operator).toContain(String(proxy.port));
    } finally {
      await proxy.restore();
    }
    await until(async () => (await erp('PUT', '/erp/v1/products/P-OUT', product('P-OUT'))).status === 202, {
      timeoutMs: 15_000,
      message: 'ERP API back',
    });
  });
});
