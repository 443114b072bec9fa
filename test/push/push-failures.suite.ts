import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { pushContext } from '../../src/push/job/context.js';
import { watchDeadPushJobs } from '../../src/push/job/internal-failure.js';
import { PUSH_QUEUE } from '../../src/push/job/queue.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { type PushHarness, startPushHarness, wmsSend } from './push-harness.js';
import { code, deliveryPoint, document, product } from './support.js';

const API = '/api/external/v1';
const TIMEOUT_MS = 3000;

/**
 * Every failure of a push shows on its record, whatever step failed. The look-up of a referenced
 * product in the WMS used to rethrow anything but 404 outside the code that records failures: the
 * record stayed {state: pending, attempts: 0, lastError: null} while its job failed and died.
 */
export function pushFailuresSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`push failures are recorded whatever step failed (${dialect})`, () => {
    let h: PushHarness;
    beforeAll(async () => {
      // A timeout long enough that a busy machine never times out a call the test did not mean to.
      h = await startPushHarness(`push-fail-${dialect}`, dialect, { WMS_TIMEOUT_MS: String(TIMEOUT_MS) });
    });
    afterEach(() => h.proxy.clear());
    afterAll(() => h.close());

    /** A product that exists in the WMS but was never sent through wms-sync: a document's push looks it up (endpoint 4). */
    const productOnlyInWms = async () => {
      const p = code('W');
      expect((await wmsSend(h, 'POST', '/product', product(p))).status).toBe(200);
      return p;
    };

    it('reference look-up answering 503: attempts and the error on the record while retrying, synced once the WMS answers', async () => {
      const p = await productOnlyInWms();
      const doc = code('DOC');
      h.proxy.inject({
        method: 'GET',
        path: `${API}/product/${p}`,
        status: 503,
        body: { title: 'Service Unavailable' },
        count: 2,
      });
      await h.put('documents', doc, document(doc, [p]));
      const retrying = await h.settled('document', doc, (r) => r.lastError !== null);
      expect(retrying).toMatchObject({
        state: 'pending',
        lastError: { kind: 'wms', step: 'references', operation: 'getProduct', status: 503, retryable: true },
      });
      expect(retrying.attempts).toBeGreaterThanOrEqual(1);
      expect(await h.settled('document', doc)).toMatchObject({ state: 'synced', attempts: 3, lastError: null });
    });

    it('reference look-up that keeps failing (5xx): failed after PUSH_MAX_ATTEMPTS with the reason, no longer waiting', async () => {
      const p = await productOnlyInWms();
      const doc = code('DOC');
      h.proxy.inject({
        method: 'GET',
        path: `${API}/product/${p}`,
        status: 502,
        body: { title: 'Bad Gateway' },
        count: 1000,
      });
      const posts = h.calls('POST', `${API}/document`);
      await h.put('documents', doc, document(doc, [p]));
      const failed = await h.settled('document', doc);
      expect(failed).toMatchObject({
        state: 'failed',
        attempts: 6,
        lastError: { kind: 'wms', step: 'references', status: 502, message: 'Bad Gateway' },
      });
      expect(await h.svc.deps.store.pushes.waitsOf(failed.id)).toEqual([]);
      expect(h.calls('POST', `${API}/document`)).toBe(posts);
    });

    it('reference look-up refused with 431 (not retryable): failed at once', async () => {
      const p = await productOnlyInWms();
      const doc = code('DOC');
      h.proxy.inject({
        method: 'GET',
        path: `${API}/product/${p}`,
        status: 431,
        body: 'Request Header Fields Too Large',
      });
      await h.put('documents', doc, document(doc, [p]));
      expect(await h.settled('document', doc)).toMatchObject({
        state: 'failed',
        attempts: 1,
        lastError: { step: 'references', status: 431, retryable: false },
      });
    });

    it('delivery point look-up timing out or dropped: each attempt recorded, synced once it answers', async () => {
      const p = await productOnlyInWms();
      const dp = code('DP');
      expect((await wmsSend(h, 'POST', '/delivery-point', deliveryPoint(dp))).status).toBe(200);
      const doc = code('DOC');
      // Held past the client's timeout (no wall-clock delay): the look-up times out.
      h.proxy.inject({ method: 'GET', path: `${API}/delivery-point/${dp}`, holdRequest: true });
      h.proxy.inject({ method: 'GET', path: `${API}/delivery-point/${dp}`, drop: true });
      await h.put('documents', doc, document(doc, [p], { deliveryPointExternalCode: dp }));
      const first = await h.settled('document', doc, (r) => r.lastError !== null, 15_000);
      expect(first.lastError).toMatchObject({ step: 'references', operation: 'getDeliveryPoint', retryable: true });
      expect(await h.settled('document', doc, undefined, 15_000)).toMatchObject({ state: 'synced', attempts: 3 });
    });

    it('the push itself failing is recorded as step "push"', async () => {
      const p = code('P');
      h.proxy.inject({
        method: 'POST',
        path: `${API}/product`,
        status: 400,
        body: { title: 'Product SKU already exists' },
      });
      await h.put('products', p, product(p));
      expect(await h.settled('product', p)).toMatchObject({
        state: 'failed',
        attempts: 1,
        lastError: { step: 'push', status: 400, message: 'Product SKU already exists' },
      });
    });

    it("a failure of our own on the job's last attempt leaves the record failed with the reason", async () => {
      // A stored payload the push code cannot read (intake would refuse it): a bug-class failure, not the WMS's.
      const doc = code('DOC');
      const { record } = await h.svc.deps.store.pushes.upsert({
        connection: 'acme',
        entity: 'document',
        externalCode: doc,
        payload: { externalCode: doc, lines: 'not a list' },
        payloadHash: `h-${doc}`,
        at: new Date(),
      });
      await h.svc.deps.queue.send(PUSH_QUEUE, { recordId: record.id }, { retryLimit: 0 });
      const failed = await h.settled('document', doc);
      expect(failed).toMatchObject({ state: 'failed', lastError: { kind: 'internal' } });
      expect((failed.lastError as { message: string }).message).toMatch(
        /^gave up after the push job's last attempt: .*map/,
      );
    });
  });

  describe(`a push job that dies, and what /metrics shows (${dialect})`, () => {
    let svc: TestService;
    const clock = new ManualClock(new Date('2026-01-10T08:00:00Z'));

    beforeAll(async () => {
      // No push worker of the service: the only worker is the one that "dies" below.
      svc = await startTestService({
        label: `push-dead-${dialect}`,
        dialect,
        clock,
        connections: [testConnection('acme')],
      });
      watchDeadPushJobs(pushContext(svc.deps));
    });
    afterAll(() => svc.close());

    it('a job whose worker stopped on its last attempt (lease ran out) leaves its record failed with the reason', async () => {
      const { record } = await svc.deps.store.pushes.upsert({
        connection: 'acme',
        entity: 'product',
        externalCode: 'P-DEAD',
        payload: product('P-DEAD'),
        payloadHash: 'h-dead',
        at: clock.now(),
      });
      // A worker that takes the job and never finishes it, as a process killed mid-push would.
      await svc.deps.queue.work(PUSH_QUEUE, { pollIntervalMs: 50 }, () => new Promise<void>(() => undefined));
      await svc.deps.queue.send(PUSH_QUEUE, { recordId: record.id }, { retryLimit: 0, expireInSeconds: 1 });
      const failed = await until(
        async () => {
          const r = await svc.deps.store.pushes.getById(record.id);
          return r?.state === 'failed' ? r : undefined;
        },
        { timeoutMs: 15_000, message: 'record failed' },
      );
      expect(failed.lastError).toMatchObject({
        kind: 'job',
        message: expect.stringContaining('the push job died: lease expired'),
      });
    });

    it('/metrics counts records by state and the age of the oldest pending one (injected clock)', async () => {
      await svc.deps.store.pushes.upsert({
        connection: 'acme',
        entity: 'product',
        externalCode: 'P-STUCK',
        payload: product('P-STUCK'),
        payloadHash: 'h-stuck',
        at: clock.now(),
      });
      clock.advance(600_000);
      await svc.deps.store.pushes.upsert({
        connection: 'acme',
        entity: 'product',
        externalCode: 'P-NEW',
        payload: product('P-NEW'),
        payloadHash: 'h-new',
        at: clock.now(),
      });
      clock.advance(5_000);
      const text = await (await svc.app.request('/metrics')).text();
      expect(text).toMatch(/^wms_sync_wms_pushes\{state="pending"\} 2$/m);
      expect(text).toMatch(/^wms_sync_wms_pushes\{state="failed"\} 1$/m);
      expect(text).toMatch(/^wms_sync_wms_pushes\{state="synced"\} 0$/m);
      expect(text).toMatch(/^wms_sync_wms_pushes_oldest_pending_seconds 605$/m);
    });
  });
}
