import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/lib/clock.js';
import { silentLogger } from '../../src/lib/logger.js';
import { WmsError } from '../../src/wms-client/index.js';
import { instrumentedWmsClients } from '../../src/wms-client/metrics.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';

// The limiter over real HTTP: the emulator's capacity model answers 429, the client backs off,
// pauses for the Retry-After, and /metrics shows the limit and the 429 count per connection.
describe('adaptive limit in /metrics, against a rate-limited emulator', () => {
  let wms: RunningEmulator;
  beforeAll(async () => {
    wms = await startEmulator();
  });
  afterAll(async () => wms.close());

  it('counts 429s per connection, halves the limit and pauses the connection for the Retry-After', async () => {
    const creds = await wms.tenant('limited');
    const res = await fetch(`${wms.url}/_emulator/tenants/limited/capacity`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ratePerSecond: 0.001, burst: 1 }),
    });
    expect(res.status).toBe(200);
    const registry = new Registry();
    const clients = instrumentedWmsClients({
      registry,
      timeoutMs: 10_000,
      maxConcurrency: 16,
      initialConcurrency: 8,
      clock: systemClock,
      logger: silentLogger(),
    });
    const client = clients.get(wmsConnection('acme', wms.url, creds));
    await expect(client.products.get('none')).rejects.toMatchObject({ status: 404 });
    const limited = await client.products.get('none').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(limited).toBeInstanceOf(WmsError);
    expect((limited as WmsError).status).toBe(429);
    expect((limited as WmsError).retryable).toBe(true);
    expect(client.limiter.limit).toBe(4);
    // Retry-After of the emulator: whole seconds, here many (0.001 calls/s): capped at 60 s
    expect(client.limiter.pausedUntil).toBeGreaterThan(Date.now() + 50_000);
    const text = await registry.metrics();
    expect(text).toContain('wms_sync_wms_rate_limited_total{connection="acme"} 1');
    expect(text).toContain('wms_sync_wms_concurrency_limit{connection="acme"} 4');
    // one success is too few to know a rate: the 429 halved the limit, no pace
    expect(text).toContain('wms_sync_wms_pace{connection="acme"} 0');
    expect(text).toContain('wms_sync_wms_backoffs_total{connection="acme",reason="429"} 1');
    await clients.close();
  });
});
