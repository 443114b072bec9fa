import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConnection, type TestService } from '../support/service.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/wait.js';
import { nextEvent } from '../queue/events.js';
import { createTestSchema } from '../support/pg.js';
import { loadConfig } from '../../src/lib/config.js';
import { openDeps } from '../../src/main.js';
import { buildApp } from '../../src/app.js';
import { silentLogger } from '../../src/lib/logger.js';

describe('readiness on Postgres when the database goes away and comes back', () => {
  const proxy = new TcpProxy('127.0.0.1', 5432);
  let svc: TestService;
  let dropSchema: () => Promise<void>;

  beforeAll(async () => {
    await proxy.start();
    const db = await createTestSchema('readyz');
    dropSchema = db.drop;
    const url = new URL(db.url);
    url.port = String(proxy.port);
    const config = { ...loadConfig({ DATABASE_URL: url.toString(), DATABASE_SCHEMA: db.schema, LOG_LEVEL: 'silent' }), connections: [testConnection()] };
    const deps = await openDeps(config, { logger: silentLogger(), queueTuning: { pgboss: { maintenanceIntervalSeconds: 1 } } });
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
    await until(async () => (await svc.app.request('/readyz')).status === 200, { timeoutMs: 15_000, message: 'ready again' });

    const done = nextEvent(svc.deps.queue, 'completed', (e) => e.name === 'after-outage');
    await svc.deps.queue.work('after-outage', { pollIntervalMs: 100 }, async () => undefined);
    await svc.deps.queue.send('after-outage', { ok: true });
    await done;
  });
});
