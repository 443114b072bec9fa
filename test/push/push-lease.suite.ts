import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { until } from '../support/wait.js';
import { type PushHarness, startPushHarness, wmsGet } from './push-harness.js';

const UPDATE = '/api/external/v1/product';
const TIMEOUT_MS = 5000;
/** The push lease of src/push/job/context.ts for WMS_TIMEOUT_MS = TIMEOUT_MS. */
const LEASE_MS = 6 * TIMEOUT_MS + 60_000;

/**
 * A push that outlives its lease (a WMS slower than the lease allows, or lookups of many references)
 * while another job pushes a newer payload: the WMS must end with the newest payload, and the record
 * must not say synced while it holds something else.
 */
export function pushLeaseSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`a push that outlives its lease (${dialect})`, () => {
    let h: PushHarness;
    const clock = new ManualClock();

    beforeAll(async () => {
      h = await startPushHarness('push-lease', dialect, { WMS_TIMEOUT_MS: String(TIMEOUT_MS) }, clock);
    });
    afterAll(async () => {
      await h.close();
    });

    it('the WMS ends with the newest payload when the older push lands after it', async () => {
      expect(await h.put('products', 'LEASE-1', { externalCode: 'LEASE-1', description: 'one' })).toBe(202);
      await h.settled('product', 'LEASE-1');

      // The WMS takes its time with the next update before applying it.
      const fault = await h.wms.control('POST', '/faults', { method: 'PUT', path: UPDATE, latencyMs: 1500, count: 1 });
      expect(fault.status).toBe(201);
      expect(await h.put('products', 'LEASE-1', { externalCode: 'LEASE-1', description: 'two' })).toBe(202);
      await until(() => h.proxy.requests.some((r) => r.method === 'PUT' && r.path === UPDATE), {
        message: 'the update of "two" is in flight',
      });

      // Its lease runs out (the worker is taken as dead); a newer payload is pushed by another job.
      clock.advance(LEASE_MS + 1000);
      expect(await h.put('products', 'LEASE-1', { externalCode: 'LEASE-1', description: 'three' })).toBe(202);
      await h.settled(
        'product',
        'LEASE-1',
        (r) => r.state === 'synced' && (r.payload as { description: string }).description === 'three',
      );
      // Then the WMS applies the older update, after the newer one.
      await until(
        () =>
          h.proxy.requests.filter((r) => r.method === 'PUT' && r.path === UPDATE && r.status !== undefined).length >= 2,
        {
          message: 'both updates answered',
        },
      );

      const final = await until(
        async () => {
          const record = (await h.svc.deps.store.pushes.get('acme', 'product', 'LEASE-1'))!;
          const held = await wmsGet(h, '/product/LEASE-1');
          // The push that synced "three" gives its lease back right after (it wakes waiters first).
          const done =
            record.state === 'synced' && record.syncedHash === record.payloadHash && record.lockedBy === null;
          return done && held.body.description === 'three' ? { record, held } : undefined;
        },
        { timeoutMs: 5000, message: 'the WMS holds "three", the record is synced with it and its lease is given back' },
      );
      expect(final.record.payload).toMatchObject({ description: 'three' });
    });
  });
}
