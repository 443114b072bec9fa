import { afterEach, describe, expect, it } from 'vitest';
import { dispatchFeed } from '../../../src/erp/delivery/dispatch.js';
import { deliveryMetrics } from '../../../src/erp/delivery/metrics.js';
import { resendDead, resendOne } from '../../../src/erp/delivery/views.js';
import { toErpFeedEntry } from '../../../src/erp/feed/read.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { until } from '../../support/wait.js';
import { deliveryHarness, type Harness, type HarnessOptions } from './harness.js';

/** The rules of pushing the feed to the ERP (signature, retries, breaker, resend), on a real store and a real receiver. */
export function pushSuite(dialect: 'sqlite' | 'postgres'): void {
  // Generous per-test deadline: on a shared Postgres every append waits for the feed-order lock.
  describe(`ERP push (${dialect})`, { timeout: 120_000 }, () => {
    let h: Harness | undefined;
    const clock = new ManualClock(Date.now()); // near the real time: the receiver checks the signature's timestamp (5 min tolerance)
    const harness = async (options: Omit<HarnessOptions, 'label' | 'dialect' | 'clock'> = {}) => {
      h = await deliveryHarness({ label: `push-${dialect}`, dialect, clock, ...options });
      return h;
    };
    const onlyDelivery = async (x: Harness) => (await x.store.erpDeliveries.list({ limit: 10 }))[0]!;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('POSTs each feed event as the pull feed shows it, signed, with a webhook-id stable per event', async () => {
      const x = await harness();
      const c = await x.append('reception.closed', {
        documentExternalCode: 'PO-1',
        lines: [{ productExternalCode: 'P1', quantity: 2 }],
      });
      const w = x.startWorker();
      await x.receiver.received(1);
      await w.settled();
      const [r] = x.receiver.receipts;
      expect(r!.id).toBe(`evt_acme_${c.id}`);
      // Byte for byte the object GET /erp/v1/feed/{id} serves, so one ERP parser reads both.
      expect(r!.body).toEqual(JSON.parse(JSON.stringify(toErpFeedEntry(c))));
      expect(x.receiver.badSignatures).toBe(0);
      const d = await onlyDelivery(x);
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200, orderKey: 'doc:PO-1' });
      const attempts = await x.store.erpDeliveries.attemptsOf(d.id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ outcome: 'delivered', status: 200, response: '{"ok":true}', probe: false });
      expect(attempts[0]!.latencyMs).toBeGreaterThanOrEqual(0);
    });

    it('a feed event committed after the worker started is pushed at once: woken by the commit, not by its poll (an hour here)', async () => {
      const x = await harness();
      const w = x.startWorker({ pollMs: 3_600_000 });
      await w.settled();
      await x.append('stock.adjusted', { productExternalCode: 'P1', quantity: 1 });
      await x.receiver.received(1);
      // The processing path appends in a transaction through its own statements: it wakes the push too.
      await x.store.transaction((tx) =>
        tx.feed.append({
          connection: 'acme',
          type: 'stock.adjusted',
          dedupeKey: 'wake-tx',
          data: { productExternalCode: 'P2', quantity: 1 },
          at: clock.now(),
        }),
      );
      await x.receiver.received(2);
      expect(x.receiver.receipts).toHaveLength(2);
    });

    it('a key left without a head mark (a process of an older version added its deliveries) is mended when the worker starts, then delivered in order', async () => {
      const x = await harness();
      await x.append('reception.closed', { documentExternalCode: 'PO-7', lines: [] });
      await x.append('reception.closed', { documentExternalCode: 'PO-7', lines: [] });
      expect(await dispatchFeed(x.store, { name: 'acme', erpWebhook: x.connection.erpWebhook! }, clock.now())).toBe(2);
      // As an older version's process leaves them: no marks at all.
      const db = (
        x.store as unknown as {
          database: { raw?: { prepare(s: string): { run(): unknown } }; pool?: { query(s: string): Promise<unknown> } };
        }
      ).database;
      if (db.raw) db.raw.prepare('UPDATE erp_deliveries SET head = 0').run();
      else await db.pool!.query('UPDATE erp_deliveries SET head = false');
      expect(
        await x.store.erpDeliveries.claim({
          connections: ['acme'],
          owner: 'probe',
          now: clock.now(),
          leaseUntil: new Date(clock.now().getTime() + 60_000),
          limit: 10,
        }),
      ).toEqual([]);
      const w = x.startWorker();
      await x.receiver.received(2);
      await w.settled();
      const ids = x.receiver.receipts.map((r) => Number(r.id.replace('evt_acme_', '')));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('pushes only the feed types the connection asks for; the others only move the cursor', async () => {
      const x = await harness({ events: ['stock.adjusted'] });
      await x.append('reception.closed', { documentExternalCode: 'PO-1' });
      const s = await x.append('stock.adjusted', { productExternalCode: 'P1', lotCode: 'L1', quantity: 3 });
      expect(await dispatchFeed(x.store, { name: 'acme', erpWebhook: x.connection.erpWebhook! }, clock.now())).toBe(1);
      const w = x.startWorker();
      await x.receiver.received(1);
      await w.settled();
      expect(x.receiver.receipts.map((r) => r.id)).toEqual([`evt_acme_${s.id}`]);
      expect((await onlyDelivery(x)).orderKey).toBe('lot:P1|L1');
    });

    it('dispatching the same feed twice at once adds each event once', async () => {
      const x = await harness();
      for (let i = 0; i < 30; i++)
        await x.append('stock.adjusted', { productExternalCode: `P${i}`, lotCode: null, quantity: 1 });
      const target = { name: 'acme', erpWebhook: x.connection.erpWebhook! };
      const added = await Promise.all([
        dispatchFeed(x.store, target, clock.now()),
        dispatchFeed(x.store, target, clock.now()),
      ]);
      expect(added[0]! + added[1]!).toBe(30);
      expect(await x.store.erpDeliveries.count({})).toBe(30);
    });

    it('a 503 is retried along the schedule (full jitter: within the step), then delivered; every attempt is kept', async () => {
      const x = await harness({
        answer: (_id, _b, hit) => (hit === 1 ? { status: 503, body: 'busy, try later' } : { status: 204 }),
      });
      await x.append('shipment.closed', { documentExternalCode: 'SO-1' });
      const w = x.startWorker();
      await until(async () => (await onlyDelivery(x)).attempts === 1);
      await w.settled();
      const d = await onlyDelivery(x);
      expect(d).toMatchObject({ status: 'pending', lastStatus: 503, lastError: 'HTTP 503' });
      // Schedule [0, 1000, …]: the retry after the first attempt is due within 1 s.
      expect(d.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(clock.nowMs());
      expect(d.nextAttemptAt.getTime()).toBeLessThanOrEqual(clock.nowMs() + 1000);
      clock.advance(1000);
      w.wake();
      await x.receiver.received(1);
      await w.settled();
      expect(await onlyDelivery(x)).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 204 });
      const attempts = await x.store.erpDeliveries.attemptsOf(d.id);
      expect(attempts.map((a) => [a.outcome, a.status, a.response])).toEqual([
        ['retry', 503, 'busy, try later'],
        ['delivered', 204, null],
      ]);
    });

    it('keeps only the first KB of an answer', async () => {
      const x = await harness({ answer: () => ({ status: 200, body: 'x'.repeat(5000) }) });
      await x.append('shipment.closed', { documentExternalCode: 'SO-2' });
      const w = x.startWorker();
      await x.receiver.received(1);
      await w.settled();
      const [a] = await x.store.erpDeliveries.attemptsOf((await onlyDelivery(x)).id);
      expect(a!.response).toHaveLength(1024);
    });

    it('a 4xx other than 408/409/425/429 fails at once (dead); 409 is retried', async () => {
      const x = await harness({
        answer: (_id, body) => ({
          status: (body.data as { documentExternalCode: string }).documentExternalCode === 'BAD' ? 422 : 409,
        }),
      });
      await x.append('reception.closed', { documentExternalCode: 'BAD' });
      await x.append('reception.closed', { documentExternalCode: 'CONFLICT' });
      const w = x.startWorker();
      await until(async () => (await x.store.erpDeliveries.list({ limit: 10 })).every((d) => d.attempts === 1));
      await w.settled();
      const byKey = new Map((await x.store.erpDeliveries.list({ limit: 10 })).map((d) => [d.orderKey, d]));
      expect(byKey.get('doc:BAD')).toMatchObject({ status: 'dead', attempts: 1, lastStatus: 422 });
      expect(byKey.get('doc:CONFLICT')).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 409 });
    });

    it("honours Retry-After on 429 and 503: the next attempt is never sooner (up to the schedule's longest step)", async () => {
      const x = await harness({
        answer: (_id, body) => ({
          status: body.type === 'stock.adjusted' ? 429 : 503,
          headers: { 'retry-after': '120' },
        }),
        settings: { retryScheduleMs: [0, 1000, 300_000] },
      });
      await x.append('stock.adjusted', { productExternalCode: 'P1', lotCode: 'L', quantity: 1 });
      await x.append('shipment.closed', { documentExternalCode: 'SO-3' });
      const w = x.startWorker();
      await until(async () => (await x.store.erpDeliveries.list({ limit: 10 })).every((d) => d.attempts === 1));
      await w.settled();
      for (const d of await x.store.erpDeliveries.list({ limit: 10 })) {
        expect(d.status).toBe('pending');
        expect(d.nextAttemptAt.getTime() - clock.nowMs()).toBeGreaterThanOrEqual(120_000);
      }
    });

    it('an endpoint that does not answer within the timeout is retried', async () => {
      const x = await harness({ answer: () => 'hang' });
      await x.append('shipment.closed', { documentExternalCode: 'SO-4' });
      // The receiver holds the request for ever, so the 100 ms deadline always passes first.
      const w = x.startWorker({ timeoutMs: 100 });
      await until(async () => (await onlyDelivery(x)).attempts === 1);
      await w.settled();
      const d = await onlyDelivery(x);
      expect(d).toMatchObject({ status: 'pending', lastStatus: null });
      expect(d.lastError).toMatch(/^timeout/);
    });

    it('after the last attempt a delivery is dead, counted in /metrics, and a resend delivers it with the same webhook-id', async () => {
      let down = true;
      const x = await harness({
        answer: () => (down ? { status: 500 } : { status: 200 }),
        settings: { retryScheduleMs: [0, 1000] },
      });
      const c = await x.append('supplier_return.closed', { documentExternalCode: 'SR-1' });
      const w = x.startWorker();
      await until(async () => (await onlyDelivery(x)).attempts === 1);
      await w.settled();
      clock.advance(1000);
      w.wake();
      await until(async () => (await onlyDelivery(x)).status === 'dead');
      await w.settled();
      const metrics = deliveryMetrics(x.svc.deps.metrics, x.store);
      expect(metrics).toBeDefined();
      const text = await x.svc.deps.metrics.metrics();
      expect(text).toContain('wms_sync_erp_deliveries_dead{connection="acme"} 1');
      expect(text).toContain('wms_sync_erp_deliveries{connection="acme",status="dead"} 1');
      down = false;
      const dead = await onlyDelivery(x);
      expect(await resendOne(x.store, dead.id, clock.now())).toMatchObject({
        ok: true,
        delivery: { status: 'pending', attempts: 0 },
      });
      expect(await resendOne(x.store, dead.id, clock.now())).toEqual({ ok: false, reason: 'pending' });
      expect(await resendOne(x.store, 999_999, clock.now())).toEqual({ ok: false, reason: 'not_found' });
      w.wake();
      await x.receiver.received(1);
      await w.settled();
      expect(x.receiver.receipts[0]!.id).toBe(`evt_acme_${c.id}`);
      expect(await onlyDelivery(x)).toMatchObject({ status: 'delivered', attempts: 1 });
      expect((await x.store.erpDeliveries.attemptsOf(dead.id)).map((a) => a.outcome)).toEqual([
        'retry',
        'dead',
        'delivered',
      ]);
    });

    it('a bulk resend puts back only the dead deliveries that match the filter', async () => {
      const x = await harness({ answer: () => ({ status: 410 }) });
      await x.append('reception.closed', { documentExternalCode: 'A' });
      await x.append('stock.adjusted', { productExternalCode: 'P', lotCode: null, quantity: 1 });
      const w = x.startWorker();
      await until(async () => (await x.store.erpDeliveries.count({ status: 'dead' })) === 2);
      await w.settled();
      expect(await resendDead(x.store, { type: 'stock.adjusted' }, clock.now(), true)).toEqual({
        matched: 1,
        resent: 0,
        dryRun: true,
      });
      expect(await x.store.erpDeliveries.count({ status: 'dead' })).toBe(2);
      expect(await resendDead(x.store, { type: 'stock.adjusted' }, clock.now(), false)).toEqual({
        matched: 1,
        resent: 1,
        dryRun: false,
      });
      const states = new Map((await x.store.erpDeliveries.list({ limit: 10 })).map((d) => [d.type, d.status]));
      expect(states.get('stock.adjusted')).toBe('pending');
      expect(states.get('reception.closed')).toBe('dead');
    });

    it('the circuit breaker opens after N consecutive failures, sends one probe per interval, and on success sends everything held', async () => {
      let down = true;
      const x = await harness({
        answer: () => (down ? { status: 503 } : { status: 200 }),
        settings: {
          breakerFailures: 3,
          breakerProbeMs: 10_000,
          concurrency: 1,
          retryScheduleMs: [0, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
        },
      });
      for (let i = 0; i < 10; i++) await x.append('reception.closed', { documentExternalCode: `PO-${i}` });
      const w = x.startWorker();
      await until(async () => (await x.store.erpDeliveries.breakers())[0]?.state === 'open');
      await w.settled();
      expect(x.receiver.requests).toBe(3);
      // Every retry comes due, but the breaker holds them: nothing reaches the endpoint.
      clock.advance(5000);
      w.wake();
      await w.settled();
      w.wake();
      await w.settled();
      expect(x.receiver.requests).toBe(3);
      expect(await x.svc.deps.metrics.metrics()).toBeDefined();
      // The probe interval passes: exactly one probe; it fails, the breaker stays open.
      clock.advance(5000);
      w.wake();
      await until(() => x.receiver.requests === 4);
      await w.settled();
      w.wake();
      await w.settled();
      expect(x.receiver.requests).toBe(4);
      expect((await x.store.erpDeliveries.breakers())[0]!.state).toBe('open');
      // A probe does not use up its delivery's attempts.
      const probed = (await x.store.erpDeliveries.list({ limit: 20 })).find(
        (d) => d.lastStatus === 503 && d.attempts === 1,
      );
      expect(probed).toBeDefined();
      down = false;
      clock.advance(10_000);
      w.wake();
      await x.receiver.received(10);
      await w.settled();
      expect((await x.store.erpDeliveries.breakers())[0]!.state).toBe('closed');
      expect(await x.store.erpDeliveries.count({ status: 'delivered' })).toBe(10);
      const probes = (
        await Promise.all(
          (await x.store.erpDeliveries.list({ limit: 20 })).map((d) => x.store.erpDeliveries.attemptsOf(d.id)),
        )
      )
        .flat()
        .filter((a) => a.probe);
      expect(probes.map((p) => p.outcome)).toEqual(['retry', 'delivered']);
    });

    it('the breaker state is shared through the store: a second worker sees it open and sends nothing', async () => {
      const x = await harness({
        answer: () => ({ status: 500 }),
        settings: { breakerFailures: 2, breakerProbeMs: 60_000, concurrency: 1 },
      });
      for (let i = 0; i < 5; i++) await x.append('reception.closed', { documentExternalCode: `PO-${i}` });
      const w1 = x.startWorker();
      await until(async () => (await x.store.erpDeliveries.breakers())[0]?.state === 'open');
      await w1.settled();
      const before = x.receiver.requests;
      clock.advance(30_000);
      const w2 = x.startWorker();
      w2.wake();
      await w2.settled();
      expect(x.receiver.requests).toBe(before);
    });

    it('retention removes finished deliveries and old attempts, keeps pending ones', async () => {
      const x = await harness({
        answer: (_id, body) => ({
          status: (body.data as { documentExternalCode: string }).documentExternalCode === 'P' ? 503 : 200,
        }),
      });
      await x.append('reception.closed', { documentExternalCode: 'D' });
      await x.append('reception.closed', { documentExternalCode: 'P' });
      const w = x.startWorker();
      await until(async () => (await x.store.erpDeliveries.list({ limit: 10 })).every((d) => d.attempts === 1));
      await w.settled();
      const cutoff = new Date(clock.nowMs() + 1);
      expect(await x.store.erpDeliveries.prune(cutoff, true)).toEqual({ deliveries: 1, attempts: 2 });
      expect(await x.store.erpDeliveries.count({})).toBe(2);
      expect(await x.store.erpDeliveries.prune(cutoff, false)).toEqual({ deliveries: 1, attempts: 2 });
      const left = await x.store.erpDeliveries.list({ limit: 10 });
      expect(left.map((d) => [d.orderKey, d.status])).toEqual([['doc:P', 'pending']]);
      expect(await x.store.erpDeliveries.attemptsOf(left[0]!.id)).toEqual([]);
    });
  });
}
