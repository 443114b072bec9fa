import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/lib/config.js';
import { runQueueOf } from '../../src/reconcile/queue.js';

describe('reconciliation settings', () => {
  it('defaults: hourly, endpoint 6 codes, batches of 100, 4 in flight, 120 s settle window', () => {
    expect(loadConfig({}).reconcile).toEqual({
      cron: '0 * * * *',
      products: 'wms',
      batchSize: 100,
      parallelism: 4,
      settleSeconds: 120,
    });
  });

  it('RECONCILE_CRON takes 5 or 6 fields, or off (no scheduled runs)', () => {
    expect(loadConfig({ RECONCILE_CRON: '*/15 * * * *' }).reconcile.cron).toBe('*/15 * * * *');
    expect(loadConfig({ RECONCILE_CRON: '30 0 3 * * *' }).reconcile.cron).toBe('30 0 3 * * *');
    expect(loadConfig({ RECONCILE_CRON: 'off' }).reconcile.cron).toBeNull();
  });

  it.each([
    [
      { RECONCILE_CRON: 'hourly' },
      /^Invalid configuration: RECONCILE_CRON: expected a cron expression \(5 fields, or 6 with seconds\) or off \(got "hourly"\)$/,
    ],
    [{ RECONCILE_CRON: '61 * * * *' }, /^Invalid configuration: RECONCILE_CRON: /],
    [{ RECONCILE_PRODUCTS: 'all' }, /^Invalid configuration: RECONCILE_PRODUCTS: /],
    [{ RECONCILE_BATCH_SIZE: '0' }, /^Invalid configuration: RECONCILE_BATCH_SIZE: /],
    [{ RECONCILE_PARALLELISM: '64' }, /^Invalid configuration: RECONCILE_PARALLELISM: /],
    [{ RECONCILE_SETTLE_SECONDS: '-1' }, /^Invalid configuration: RECONCILE_SETTLE_SECONDS: /],
  ])('refuses %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env as Record<string, string>)).toThrow(ConfigError);
    expect(() => loadConfig(env as Record<string, string>)).toThrow(message);
  });

  it('each connection has a queue of its own, named within the queue name rules, distinct for distinct names', () => {
    const names = ['acme', 'ACME', 'Acme Foods_EU', '', 'ü', 'x'.repeat(200)].map(runQueueOf);
    for (const n of names) expect(n).toMatch(/^reconcile-run-[a-z0-9-]+$/);
    expect(new Set(names).size).toBe(names.length);
  });
});
