import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, spawnCli, waitForOutput } from '../support/cli.js';
import { createTestSchema } from '../support/pg.js';

describe('wms-sync serve on Postgres', () => {
  let db: Awaited<ReturnType<typeof createTestSchema>>;
  beforeAll(async () => {
    db = await createTestSchema('cli');
  });
  afterAll(() => db.drop());

  it('starts with pg-boss, answers /readyz 200, and exits 0 on SIGTERM', async () => {
    const connection = {
      WMS_BASE_URL: 'http://127.0.0.1:9',
      WMS_CLIENT_ID: 'c',
      WMS_CLIENT_SECRET: 's',
      WEBHOOK_USERNAME: 'wms',
      WEBHOOK_PASSWORD: 'password-123',
      ERP_API_TOKEN: 'erp-token-0123456789',
    };
    const child = spawnCli(['serve', '--port', '0'], {
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: db.schema,
      LOG_LEVEL: 'info',
      ...connection,
    });
    const [line, url] = await waitForOutput(child, /"url":"(http:\/\/127\.0\.0\.1:\d+)".*\n?/);
    expect(line).toContain('"database":"postgres"');
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { store: 'ok', queue: 'ok', storage: 'ok', connections: 'ok' },
    });
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('stops with one line when the database cannot be reached', async () => {
    const child = spawnCli(['serve', '--port', '0'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    expect(await exitOf(child)).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^wms-sync serve: /);
  });
});
