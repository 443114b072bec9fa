import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regularizationKeyOf } from '../../src/inbound/dedupe.js';
import { inboundJobs } from '../../src/inbound/jobs.js';
import { INBOUND_QUEUE } from '../../src/inbound/queue.js';
import { startWorkers } from '../../src/worker.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { authOf, CLOSE_KINDS, fixture, postWebhook, uniquePayload, WEBHOOK_KINDS } from './support.js';

/** Accepted webhooks: answered 200 only once stored with their job; repeats counted, never re-queued. */
export function webhooksHappySuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`webhook routes, accepted webhooks (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');
    const waitingJobs = async () => {
      const counts = await svc.deps.queue.counts(INBOUND_QUEUE);
      return counts.created + counts.retry;
    };

    beforeAll(async () => {
      svc = await startTestService({ label: 'wh-happy', dialect, connections: [acme] });
    });
    afterAll(async () => {
      await svc.close();
    });

    for (const kind of WEBHOOK_KINDS) {
      it(`${kind}: stores the raw body byte for byte with one processing job, then answers 200 {success:true}`, async () => {
        // Odd spacing and non-ASCII text: what is stored must be what was sent, not a re-serialisation.
        const body = `${JSON.stringify(uniquePayload(kind), null, 3).replace('{', '{  ')}\n`;
        const jobsBefore = await waitingJobs();
        const res = await postWebhook(
          svc.app,
          acme,
          kind,
          body.replace('"Acme Foods S.L."', '"Acme Foods S.L. — Zaragoza"'),
        );
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ success: true });
        const [event] = await svc.deps.store.inbox.list({ connection: 'acme', kind, limit: 1 });
        expect(event).toMatchObject({ status: 'received', duplicates: 0, attempts: 0, kind });
        expect(event!.payload).toBe(body.replace('"Acme Foods S.L."', '"Acme Foods S.L. — Zaragoza"'));
        expect(await waitingJobs()).toBe(jobsBefore + 1);
      });
    }

    for (const kind of CLOSE_KINDS) {
      // spec: "handle duplicate deliveries idempotently, keyed on closingDocumentCode"
      it(`${kind}: a repeat of a closingDocumentCode answers 200 again, counts a duplicate, queues nothing`, async () => {
        const payload = uniquePayload(kind);
        expect((await postWebhook(svc.app, acme, kind, payload)).status).toBe(200);
        const jobs = await waitingJobs();
        // The repeat may differ in anything but the key: the first body is the one kept.
        const repeat = await postWebhook(svc.app, acme, kind, {
          ...payload,
          observations: 'sent again by the operator',
        });
        expect(repeat.status).toBe(200);
        expect(await repeat.json()).toMatchObject({
          success: true,
          message: expect.stringMatching(/already received/i),
        });
        const event = await svc.deps.store.inbox.findByKey('acme', `${kind}:${payload.closingDocumentCode as string}`);
        expect(event).toMatchObject({ duplicates: 1, payload: JSON.stringify(payload) });
        expect(await waitingJobs()).toBe(jobs);
      });
    }

    it('the same closingDocumentCode on two kinds is two events (codes are scoped by webhook kind)', async () => {
      const code = `SHARED-${Date.now()}`;
      expect(
        (
          await postWebhook(svc.app, acme, 'reception-close', {
            ...fixture('reception-close'),
            closingDocumentCode: code,
          })
        ).status,
      ).toBe(200);
      const res = await postWebhook(svc.app, acme, 'shipping-order-close', {
        ...fixture('shipping-order-close'),
        closingDocumentCode: code,
      });
      expect(await res.json()).toEqual({ success: true });
      expect((await svc.deps.store.inbox.findByKey('acme', `shipping-order-close:${code}`))?.duplicates).toBe(0);
    });

    it('stock regularization: the same movement written with another offset, or with lot "" instead of null, is a repeat', async () => {
      const p = {
        productExternalCode: 'MILK-UHT-1L',
        lotCode: null,
        quantity: -7,
        movementTime: '2026-11-22T16:41:07+01:00',
        warehouse: 'WH-ZGZ-01',
      };
      expect(await (await postWebhook(svc.app, acme, 'stock-regularization', p)).json()).toEqual({ success: true });
      const same = { ...p, lotCode: '', movementTime: '2026-11-22T15:41:07Z' };
      const res = await postWebhook(svc.app, acme, 'stock-regularization', same);
      expect(await res.json()).toMatchObject({ success: true, message: expect.any(String) });
      const key = regularizationKeyOf({ ...p, movementTime: '2026-11-22T15:41:07.000Z' });
      expect((await svc.deps.store.inbox.findByKey('acme', key))?.duplicates).toBe(1);
      // Another quantity at the same time is another movement.
      await postWebhook(svc.app, acme, 'stock-regularization', { ...p, quantity: -8 });
      expect((await svc.deps.store.inbox.findByKey('acme', key))?.duplicates).toBe(1);
    });

    it('keeps the request id of the webhook, from X-Request-Id when sent', async () => {
      const payload = uniquePayload('reception-close');
      const res = await svc.app.request('/webhooks/acme/reception-close', {
        method: 'POST',
        headers: {
          authorization: authOf(acme),
          'content-type': 'application/json; charset=utf-8',
          'x-request-id': 'wms-delivery-77',
        },
        body: JSON.stringify(payload),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('wms-delivery-77');
      expect(
        (await svc.deps.store.inbox.findByKey('acme', `reception-close:${payload.closingDocumentCode as string}`))
          ?.requestId,
      ).toBe('wms-delivery-77');
    });

    // Last: it starts the worker.
    it('concurrent webhooks share commits and jobs; every acknowledged event is in a job (the worker processes them all)', async () => {
      const jobs = await waitingJobs();
      const kindOf = (i: number) => WEBHOOK_KINDS[i % WEBHOOK_KINDS.length]!;
      const payloads = Array.from({ length: 40 }, (_, i) => uniquePayload(kindOf(i), 'C'));
      const answers = await Promise.all(payloads.map((p, i) => postWebhook(svc.app, acme, kindOf(i), p)));
      expect(answers.map((r) => r.status)).toEqual(payloads.map(() => 200));
      const newJobs = (await waitingJobs()) - jobs;
      expect(newJobs).toBeGreaterThanOrEqual(1);
      expect(newJobs).toBeLessThan(40);
      await startWorkers(svc.deps, [inboundJobs]);
      await until(
        async () => {
          const counts = await svc.deps.store.inbox.countByStatus();
          return counts.received === 0 && counts.processed > 40;
        },
        { message: 'every stored event processed' },
      );
    });
  });
}
