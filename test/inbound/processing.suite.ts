import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErpFeedEntry, FeedPage } from '../../src/erp/feed/read.js';
import { writeEvents } from '../../src/inbound/ack-writer.js';
import { correctEvent } from '../../src/inbound/correct-event.js';
import { INBOUND_QUEUE } from '../../src/inbound/queue.js';
import { retryEvent } from '../../src/inbound/retry-event.js';
import type { InboundEvent } from '../../src/store/types.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { fixture, postWebhook, uniquePayload, type WebhookKind } from './support.js';

export const PROCESSING_ENV = {
  QUEUE_POLL_INTERVAL_MS: '50',
  INBOUND_RETRY_LIMIT: '2',
  INBOUND_RETRY_DELAY_SECONDS: '0',
};

/** Events become feed entries in the ERP feed and ledger movements, once, whatever the repeats. */
export function processingSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`processing into feed entries (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');

    beforeAll(async () => {
      svc = await startTestService({
        label: 'processing',
        dialect,
        connections: [acme],
        env: PROCESSING_ENV,
        worker: true,
      });
    });
    afterAll(async () => {
      await svc.close();
    });

    const keyOf = (kind: WebhookKind, p: Record<string, unknown>) => `${kind}:${p.closingDocumentCode as string}`;
    const settled = (key: string, status: InboundEvent['status'] = 'processed') =>
      until(
        async () => {
          const e = await svc.deps.store.inbox.findByKey('acme', key);
          return e?.status === status ? e : undefined;
        },
        { message: `event ${key} ${status}` },
      );
    const feedEntryOf = async (eventId: number): Promise<ErpFeedEntry> => {
      const res = await svc.app.request('/erp/v1/feed?after=0&limit=1000', {
        headers: { authorization: `Bearer ${acme.erpApiToken}` },
      });
      const page = (await res.json()) as FeedPage;
      const found = page.entries.filter((e) => e.data.eventId === eventId);
      expect(found).toHaveLength(1);
      return found[0]!;
    };
    const receive = async (kind: WebhookKind, payload: Record<string, unknown>) => {
      expect((await postWebhook(svc.app, acme, kind, payload)).status).toBe(200);
      return settled(keyOf(kind, payload));
    };

    it('reception close → reception.closed with lines (lots, expiry, serials) and + ledger movements', async () => {
      const payload = uniquePayload('reception-close');
      const event = await receive('reception-close', payload);
      const feed = await feedEntryOf(event.id);
      expect(feed.type).toBe('reception.closed');
      expect(feed.data).toMatchObject({
        closingDocumentCode: payload.closingDocumentCode,
        documentExternalCode: 'ERP-PO-2026-0871',
        documentType: 'PURCHASE_ORDER',
        documentNumbers: ['PO-2026-0871'],
        originCode: 'SUP-0042',
        receptionDate: '2026-11-20',
        differences: null,
        lines: [
          {
            productExternalCode: 'YOG-NAT-125',
            quantity: 480,
            lotCode: 'L2026-1101',
            expirationDate: '2026-12-15',
            serialNumbers: [],
          },
          {
            productExternalCode: 'YOG-NAT-125',
            quantity: 240,
            lotCode: 'L2026-1102',
            expirationDate: '2026-12-16',
            serialNumbers: [],
          },
          {
            productExternalCode: 'MILK-UHT-1L',
            quantity: 594,
            lotCode: 'U2611A',
            expirationDate: '2027-05-01',
            serialNumbers: [],
          },
          {
            productExternalCode: 'SCALE-KIT-01',
            quantity: 2,
            lotCode: null,
            expirationDate: null,
            serialNumbers: ['SK01-000981', 'SK01-000982'],
          },
        ],
      });
      const movements = (await svc.deps.store.ledger.list('acme', { limit: 1000 })).filter(
        (m) => m.sourceEventId === event.id,
      );
      expect(movements.map((m) => [m.productExternalCode, m.lotCode, m.quantity]).sort()).toEqual(
        [
          ['MILK-UHT-1L', 'U2611A', 594],
          ['SCALE-KIT-01', '', 2],
          ['YOG-NAT-125', 'L2026-1101', 480],
          ['YOG-NAT-125', 'L2026-1102', 240],
        ].sort(),
      );
      expect(event).toMatchObject({ attempts: 1, error: null });
    });

    it('shipping order close → shipment.closed with packing list, carrier and destination, and − ledger movements', async () => {
      const payload = uniquePayload('shipping-order-close');
      const event = await receive('shipping-order-close', payload);
      const feed = await feedEntryOf(event.id);
      expect(feed.type).toBe('shipment.closed');
      expect(feed.data).toMatchObject({
        documentType: 'CLIENT_EXPEDITION',
        destinationCode: 'CUST-10877',
        deliveryPointExternalCode: 'DP-MAD-CENTRO-02',
        carrier: 'SEUR',
        deliveryPlace: 'Calle de Alcalá 120, 28009 Madrid',
        packingList: [
          { packingCode: 'PKG-0019384-1', weight: 18.4, lines: [{ productExternalCode: 'YOG-NAT-125', quantity: 96 }] },
          {
            packingCode: 'PKG-0019384-2',
            weight: 61.9,
            lines: [
              { productExternalCode: 'MILK-UHT-1L', quantity: 54 },
              { productExternalCode: 'SCALE-KIT-01', quantity: 1 },
            ],
          },
        ],
      });
      expect((feed.data.lines as unknown[])[2]).toEqual({
        productExternalCode: 'SCALE-KIT-01',
        quantity: 1,
        lotCode: null,
        expirationDate: null,
        serialNumbers: ['SK01-000981'],
      });
      const movements = (await svc.deps.store.ledger.list('acme', { limit: 1000 })).filter(
        (m) => m.sourceEventId === event.id,
      );
      expect(movements.map((m) => m.quantity).sort((a, b) => a - b)).toEqual([-96, -54, -1].sort((a, b) => a - b));
    });

    it('client return and supplier return close → client_return.closed and supplier_return.closed', async () => {
      const ret = await receive('client-return-close', uniquePayload('client-return-close'));
      expect((await feedEntryOf(ret.id)).type).toBe('client_return.closed');
      const sup = await receive('supplier-return-close', uniquePayload('supplier-return-close'));
      const feed = await feedEntryOf(sup.id);
      expect(feed).toMatchObject({
        type: 'supplier_return.closed',
        data: { carrier: 'Transportes Norte', deliveryPointExternalCode: null },
      });
      const movements = (await svc.deps.store.ledger.list('acme', { limit: 1000 })).filter(
        (m) => m.sourceEventId === sup.id,
      );
      expect(movements.map((m) => m.quantity)).toEqual([-120]);
    });

    it('a negative stock regularization → stock.adjusted and a − movement at its movementTime and warehouse', async () => {
      const payload = {
        ...fixture('stock-regularization'),
        quantity: -12.5,
        productExternalCode: `MILK-${Date.now()}`,
      };
      expect((await postWebhook(svc.app, acme, 'stock-regularization', payload)).status).toBe(200);
      const event = await until(async () => {
        const [e] = await svc.deps.store.inbox.list({
          connection: 'acme',
          kind: 'stock-regularization',
          status: 'processed',
          limit: 1,
        });
        return e && JSON.parse(e.payload).productExternalCode === payload.productExternalCode ? e : undefined;
      });
      expect((await feedEntryOf(event.id)).data).toMatchObject({
        // The feed's one form: UTC with milliseconds, whatever offset the WMS wrote.
        productExternalCode: payload.productExternalCode,
        lotCode: 'U2611A',
        quantity: -12.5,
        movementTime: '2026-11-22T15:41:07.000Z',
        warehouse: 'WH-ZGZ-01',
      });
      const [movement] = await svc.deps.store.ledger.list('acme', {
        productExternalCode: payload.productExternalCode,
        limit: 10,
      });
      expect(movement).toMatchObject({ quantity: -12.5, lotCode: 'U2611A', warehouse: 'WH-ZGZ-01' });
      expect(movement!.movementTime.toISOString()).toBe('2026-11-22T15:41:07.000Z');
    });

    it('reception of a document the ERP pushed → differences: surplus, shortage and unknown products', async () => {
      const documentExternalCode = `ERP-PO-${Date.now()}`;
      await svc.deps.store.pushes.upsert({
        connection: 'acme',
        entity: 'document',
        externalCode: documentExternalCode,
        payloadHash: 'h',
        at: new Date(),
        payload: {
          externalCode: documentExternalCode,
          documentNumber: 'PO-1',
          documentType: 'PURCHASE_ORDER',
          lines: [
            { lineNumber: 1, productExternalCode: 'YOG-NAT-125', quantity: 700, lotCode: null },
            { lineNumber: 2, productExternalCode: 'MILK-UHT-1L', quantity: 600, lotCode: 'U2611A' },
            { lineNumber: 3, productExternalCode: 'SCALE-KIT-01', quantity: 2 },
            { lineNumber: 4, productExternalCode: 'BUTTER-250', quantity: 50 },
          ],
        },
      });
      const payload: Record<string, unknown> = { ...uniquePayload('reception-close'), documentExternalCode };
      (payload.lines as unknown[]).push({ externalCode: 'CHEESE-1KG', quantity: 4, lotCode: 'C1' });
      const event = await receive('reception-close', payload);
      expect((await feedEntryOf(event.id)).data.differences).toEqual({
        hasDifferences: true,
        lines: [
          {
            productExternalCode: 'BUTTER-250',
            lotCode: null,
            ordered: 50,
            received: 0,
            difference: -50,
            kind: 'shortage',
          },
          {
            productExternalCode: 'MILK-UHT-1L',
            lotCode: 'U2611A',
            ordered: 600,
            received: 594,
            difference: -6,
            kind: 'shortage',
          },
          {
            productExternalCode: 'YOG-NAT-125',
            lotCode: null,
            ordered: 700,
            received: 720,
            difference: 20,
            kind: 'surplus',
          },
        ],
        unknownProducts: [{ productExternalCode: 'CHEESE-1KG', lotCode: 'C1', received: 4 }],
      });
    });

    // spec: "handle duplicate deliveries idempotently, keyed on closingDocumentCode"
    it('50 concurrent webhooks of one closingDocumentCode → one feed entry, duplicates = 49', async () => {
      const payload = uniquePayload('reception-close', 'RACE');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => postWebhook(svc.app, acme, 'reception-close', payload)),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
      const event = await settled(keyOf('reception-close', payload));
      expect(event.duplicates).toBe(49);
      const res = await svc.app.request('/erp/v1/feed?limit=1000', {
        headers: { authorization: `Bearer ${acme.erpApiToken}` },
      });
      const page = (await res.json()) as FeedPage;
      expect(page.entries.filter((e) => e.data.closingDocumentCode === payload.closingDocumentCode)).toHaveLength(1);
      expect(
        (await svc.deps.store.ledger.list('acme', { limit: 10_000 })).filter((m) => m.sourceEventId === event.id),
      ).toHaveLength(4);
    });

    it('a processing failure retries with backoff, then leaves the event failed with its error, and the dead job visible; its job-mate is processed', async () => {
      // A row of a kind this version does not know (written by another version): processing fails.
      // It shares its commit, hence its job, with a good event.
      const key = `invoice-close:LEGACY-${Date.now()}`;
      const good = uniquePayload('reception-close');
      const [written] = await writeEvents(svc.deps, [
        {
          connection: 'acme',
          kind: 'invoice-close',
          dedupeKey: key,
          payload: '{"closingDocumentCode":"LEGACY"}',
          at: new Date(),
        },
        {
          connection: 'acme',
          kind: 'reception-close',
          dedupeKey: keyOf('reception-close', good),
          payload: JSON.stringify(good),
          at: new Date(),
        },
      ]);
      const event = written!.event;
      expect((await settled(keyOf('reception-close', good))).attempts).toBe(1);
      const failed = await settled(key, 'failed');
      expect(failed.attempts).toBe(3);
      expect(failed.error).toMatch(/unknown event kind "invoice-close"/);
      // Every attempt is in the event's history with its error; the last one is final.
      const attempts = await svc.deps.store.inbox.attemptsOf(event.id);
      expect(attempts.map((a) => a.outcome)).toEqual(['error', 'error', 'failed']);
      expect(attempts[2]!.error).toMatch(/unknown event kind/);
      // The event is marked failed inside the last attempt; the job is marked dead just after it.
      await until(
        async () =>
          (await svc.deps.queue.listDead({ name: INBOUND_QUEUE })).some((j) =>
            (j.data as { eventIds: number[] }).eventIds.includes(event.id),
          ),
        {
          message: 'dead job listed',
        },
      );
      // Operator retry: back to received, processed again (and failing again, for this payload).
      expect(await retryEvent(svc.deps, event.id)).toMatchObject({ ok: true, event: { status: 'received' } });
      await until(
        async () =>
          (await svc.deps.store.inbox.get(event.id))?.attempts === 6 &&
          (await svc.deps.store.inbox.get(event.id))?.status === 'failed',
      );
    });

    it('a stored event processing cannot apply (a line without a product) is quarantined, not retried; its correction is processed', async () => {
      // Written as received, as a version before tolerant reading stored it: processing reads it again.
      const code = `QUAR-${Date.now()}`;
      const key = `reception-close:${code}`;
      const broken = { ...fixture('reception-close'), closingDocumentCode: code, lines: [{ quantity: 3 }] };
      await writeEvents(svc.deps, [
        {
          connection: 'acme',
          kind: 'reception-close',
          dedupeKey: key,
          payload: JSON.stringify(broken),
          at: new Date(),
        },
      ]);
      const quarantined = await settled(key, 'quarantined');
      expect(quarantined.quarantineReason).toBe(
        'lines[0].externalCode: missing: a line without a product cannot be applied',
      );
      expect(quarantined.attempts).toBe(1);
      expect((await svc.deps.store.inbox.attemptsOf(quarantined.id)).map((a) => a.outcome)).toEqual(['quarantined']);
      expect(await svc.deps.store.feed.bySourceEvent(quarantined.id)).toEqual([]);
      const corrected = await correctEvent(svc.deps, {
        id: quarantined.id,
        payload: { ...broken, lines: [{ externalCode: 'YOG-NAT-125', quantity: 3 }] },
        actor: 'test',
      });
      expect(corrected).toMatchObject({
        ok: true,
        stored: true,
        changes: [{ path: 'lines[0].externalCode', after: 'YOG-NAT-125' }],
      });
      const processed = await settled(key);
      expect(processed.payload).toBe(JSON.stringify(broken));
      expect(processed.quarantineReason).toBeNull();
      expect((await feedEntryOf(processed.id)).data).toMatchObject({
        closingDocumentCode: code,
        lines: [{ productExternalCode: 'YOG-NAT-125', quantity: 3 }],
      });
    });

    it('retrying a processed event runs it again without a second feed entry; a rejected or unknown one cannot be retried', async () => {
      const payload = uniquePayload('shipping-order-close');
      const event = await receive('shipping-order-close', payload);
      const first = await feedEntryOf(event.id);
      expect(await retryEvent(svc.deps, event.id)).toMatchObject({ ok: true });
      await until(async () => {
        const e = await svc.deps.store.inbox.get(event.id);
        return e?.status === 'processed' && e.attempts === 2;
      });
      expect((await feedEntryOf(event.id)).id).toBe(first.id);
      expect(
        (await svc.deps.store.ledger.list('acme', { limit: 10_000 })).filter((m) => m.sourceEventId === event.id),
      ).toHaveLength(3);
      await postWebhook(svc.app, acme, 'reception-close', '{"bad":');
      const [rejected] = await svc.deps.store.inbox.list({ connection: 'acme', status: 'rejected', limit: 1 });
      expect(await retryEvent(svc.deps, rejected!.id)).toEqual({ ok: false, reason: 'rejected' });
      expect(await retryEvent(svc.deps, 987_654_321)).toEqual({ ok: false, reason: 'not_found' });
    });
  });
}
