import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_QUEUE } from '../../src/push/job/queue.js';
import type { QueueEvents } from '../../src/queue/types.js';
import { type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { type FaultyProxy, startFaultyProxy } from '../support/faulty-proxy.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';
import { erp } from './support.js';

const CREATE = '/api/external/v1/product';
/** A queue lease far shorter than the WMS's answer, so the push outlives several leases. */
const LEASE_SECONDS = 1;
const WMS_LATENCY_MS = 4 * LEASE_SECONDS * 1000;

/**
 * A push waiting on a slow WMS (WMS_TIMEOUT_MS at its default, 30 s) runs longer than the queue's
 * lease: its worker's heartbeat keeps the job, so the job is not taken as abandoned and run again
 * meanwhile, and the WMS sees one create.
 */
export function pushSlowWmsSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`a push waiting on a slow WMS (${dialect})`, () => {
    let wms: RunningEmulator;
    let proxy: FaultyProxy;
    let svc: TestService;
    let acme: ReturnType<typeof wmsConnection>;

    beforeAll(async () => {
      wms = await startEmulator();
      proxy = await startFaultyProxy(wms.url);
      acme = wmsConnection('acme', proxy.url, await wms.tenant('acme'));
      svc = await startTestService({
        label: 'push-slow',
        dialect,
        connections: [acme],
        worker: true,
        env: { QUEUE_POLL_INTERVAL_MS: '50' },
        queueTuning: { sqlite: { leaseSeconds: LEASE_SECONDS }, pgboss: { leaseSeconds: LEASE_SECONDS } },
      });
    });
    afterAll(async () => {
      await svc.close();
      await proxy.close();
      await wms.close();
    });

    it('is not run a second time while it waits, and the WMS gets one create', async () => {
      expect(svc.deps.config.wms.timeoutMs).toBe(30_000);
      const events: { kind: 'completed' | 'failed'; e: QueueEvents['completed'][0] | QueueEvents['failed'][0] }[] = [];
      svc.deps.queue.on('completed', (e) => e.name === PUSH_QUEUE && events.push({ kind: 'completed', e }));
      svc.deps.queue.on('failed', (e) => e.name === PUSH_QUEUE && events.push({ kind: 'failed', e }));
      expect(
        (await wms.control('POST', '/faults', { method: 'POST', path: CREATE, latencyMs: WMS_LATENCY_MS, count: 1 }))
          .status,
      ).toBe(201);

      const res = await erp(svc.app, acme, 'PUT', '/erp/v1/products/SLOW-1', {
        json: { externalCode: 'SLOW-1', description: 'slow' },
      });
      expect(res.status).toBe(202);
      const record = await until(
        async () => {
          const r = await svc.deps.store.pushes.get('acme', 'product', 'SLOW-1');
          return r?.state === 'synced' ? r : undefined;
        },
        { timeoutMs: 20_000, message: 'the product synced' },
      );
      expect(record.attempts).toBe(1);
      expect(proxy.count('POST', CREATE)).toBe(1);
      // One job, run once: completed, never failed by an expired lease nor run again.
      await until(() => events.some((x) => x.kind === 'completed'), { message: 'the push job completed' });
      expect(events.map((x) => x.kind)).toEqual(['completed']);
      const counts = await svc.deps.queue.counts(PUSH_QUEUE);
      expect(counts).toMatchObject({ completed: 1, active: 0, retry: 0, failed: 0 });
    });
  });
}
