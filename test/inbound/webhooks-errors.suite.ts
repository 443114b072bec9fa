import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectedKeyOf } from '../../src/inbound/dedupe.js';
import { INBOUND_QUEUE } from '../../src/inbound/queue.js';
import { startTestService, testConnection, type TestService } from '../support/service.js';
import { authOf, CLOSE_KINDS, fixture, postWebhook, uniquePayload, WEBHOOK_KINDS, type WebhookKind } from './support.js';

const LIMIT = 4096;

/** Paths whose absence a receiver cannot work with (src/wms/webhooks.ts marks exactly these required). */
const REQUIRED: Record<'close' | 'stock', string[]> = {
  close: ['closingDocumentCode', 'documentExternalCode', 'documentType', 'lines', 'lines[0].externalCode', 'lines[0].quantity'],
  stock: ['productExternalCode', 'quantity', 'movementTime'],
};

function without(payload: Record<string, unknown>, path: string): Record<string, unknown> {
  const copy = structuredClone(payload);
  const m = /^lines\[0\]\.(\w+)$/.exec(path);
  if (m) delete (copy.lines as Record<string, unknown>[])[0]![m[1]!];
  else delete copy[path];
  return copy;
}

/** Refused deliveries: a defined status and body naming the problem, and the raw body kept as rejected. */
export function webhooksErrorsSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`webhook routes, refused deliveries (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');

    beforeAll(async () => {
      svc = await startTestService({ label: 'wh-errors', dialect, connections: [acme], env: { BODY_LIMIT_BYTES: String(LIMIT) } });
    });
    afterAll(async () => {
      await svc.close();
    });

    const rejectedRow = (kind: WebhookKind, body: string) => svc.deps.store.inbox.findByKey('acme', rejectedKeyOf(kind, body));

    for (const kind of WEBHOOK_KINDS) {
      for (const path of REQUIRED[kind === 'stock-regularization' ? 'stock' : 'close']) {
        // spec: "To reject a close document, the receiver returns a body with success = false and message"
        it(`${kind}: missing ${path} → 400 {success:false, message naming ${path}}, stored as rejected`, async () => {
          const body = JSON.stringify(without(uniquePayload(kind), path));
          const res = await postWebhook(svc.app, acme, kind, body);
          expect(res.status).toBe(400);
          const answer = (await res.json()) as { success: boolean; error: string; message: string; details: { path: string }[] };
          expect(answer).toMatchObject({ success: false, error: 'validation_failed' });
          expect(answer.message).toContain(path);
          expect(answer.details.map((d) => d.path)).toContain(path);
          expect(await rejectedRow(kind, body)).toMatchObject({ status: 'rejected', payload: body, error: answer.message });
        });
      }
    }

    const badValues: [string, WebhookKind, (p: Record<string, unknown>) => unknown, string][] = [
      ['an unknown documentType', 'reception-close', (p) => ({ ...p, documentType: 'INVOICE' }), 'documentType'],
      ['a quantity sent as a string', 'shipping-order-close', (p) => ({ ...p, lines: [{ externalCode: 'A', quantity: '3' }] }), 'lines[0].quantity'],
      ['an empty closingDocumentCode', 'client-return-close', (p) => ({ ...p, closingDocumentCode: '' }), 'closingDocumentCode'],
      ['an impossible receptionDate', 'reception-close', (p) => ({ ...p, receptionDate: '2026-02-30' }), 'receptionDate'],
      ['a packing weight that is not a number', 'supplier-return-close', (p) => ({ ...p, packingList: [{ packingCode: 'P', weight: 'heavy' }] }), 'packingList[0].weight'],
      ['a movementTime without offset', 'stock-regularization', (p) => ({ ...p, movementTime: '2026-11-22T16:41:07' }), 'movementTime'],
      ['serialNumbers that are not strings', 'reception-close', (p) => ({ ...p, lines: [{ externalCode: 'A', quantity: 1, serialNumbers: [1] }] }), 'lines[0].serialNumbers[0]'],
      ['an array instead of an object', 'stock-regularization', () => [], '(body)'],
      ['null', 'reception-close', () => null, '(body)'],
    ];
    for (const [what, kind, change, path] of badValues) {
      it(`${kind}: ${what} → 400 naming ${path}`, async () => {
        const body = JSON.stringify(change(uniquePayload(kind)));
        const res = await postWebhook(svc.app, acme, kind, body);
        expect(res.status).toBe(400);
        const answer = (await res.json()) as { success: boolean; message: string };
        expect(answer.success).toBe(false);
        expect(answer.message).toContain(path);
        expect((await rejectedRow(kind, body))?.status).toBe('rejected');
      });
    }

    // Postgres cannot store U+0000 in text or jsonb: accepted, such an event could never be processed there.
    it('stock-regularization: NUL in a string → 400 naming the field, stored as rejected, nothing to process', async () => {
      const body = JSON.stringify({ ...uniquePayload('stock-regularization'), productExternalCode: 'OIL\u0000' });
      const jobs = (await svc.deps.queue.counts(INBOUND_QUEUE)).created;
      const res = await postWebhook(svc.app, acme, 'stock-regularization', body);
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { success: boolean; error: string; message: string };
      expect(answer).toMatchObject({ success: false, error: 'validation_failed' });
      expect(answer.message).toMatch(/productExternalCode: .*U\+0000/);
      expect(await rejectedRow('stock-regularization', body)).toMatchObject({ status: 'rejected', payload: body });
      expect((await svc.deps.queue.counts(INBOUND_QUEUE)).created).toBe(jobs);
    });

    for (const body of ['{"closingDocumentCode": "X", ', '', 'closingDocumentCode=X']) {
      it(`malformed JSON ${JSON.stringify(body)} → 400 malformed_json, stored as rejected`, async () => {
        const res = await postWebhook(svc.app, acme, 'reception-close', body);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ success: false, error: 'malformed_json', message: expect.stringMatching(/not valid JSON/) });
        expect(await rejectedRow('reception-close', body)).toMatchObject({ status: 'rejected', payload: body });
      });
    }

    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      it(`content type ${contentType ?? '(none)'} → 415, stored as rejected`, async () => {
        const body = JSON.stringify(uniquePayload('shipping-order-close'));
        const res = await postWebhook(svc.app, acme, 'shipping-order-close', body, { contentType });
        expect(res.status).toBe(415);
        expect(await res.json()).toMatchObject({ success: false, error: 'unsupported_media_type', message: 'Content-Type must be application/json' });
        expect((await rejectedRow('shipping-order-close', body))?.error).toMatch(/Content-Type/);
      });
    }

    it('a body over BODY_LIMIT_BYTES → 413 and nothing stored, with or without Content-Length', async () => {
      const before = (await svc.deps.store.inbox.list({ connection: 'acme', limit: 1000 })).length;
      const big = JSON.stringify({ ...uniquePayload('reception-close'), observations: 'x'.repeat(LIMIT) });
      const res = await postWebhook(svc.app, acme, 'reception-close', big);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ success: false, error: 'payload_too_large' });
      const chunked = await svc.app.request('/webhooks/acme/reception-close', {
        method: 'POST',
        headers: { authorization: authOf(acme), 'content-type': 'application/json' },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect((await svc.deps.store.inbox.list({ connection: 'acme', limit: 1000 })).length).toBe(before);
    });

    it('a chunked body (no Content-Length) under the limit is read whole and accepted', async () => {
      const payload = uniquePayload('reception-close');
      const res = await svc.app.request('/webhooks/acme/reception-close', {
        method: 'POST',
        headers: { authorization: authOf(acme), 'content-type': 'application/json' },
        body: new Blob([JSON.stringify(payload)]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(200);
      expect((await svc.deps.store.inbox.findByKey('acme', `reception-close:${payload.closingDocumentCode as string}`))?.payload).toBe(JSON.stringify(payload));
    });

    it('a body just under the limit is accepted', async () => {
      const payload = uniquePayload('reception-close');
      const base = JSON.stringify({ ...payload, observations: '' });
      const body = JSON.stringify({ ...payload, observations: 'x'.repeat(LIMIT - base.length) });
      expect(body.length).toBe(LIMIT);
      expect((await postWebhook(svc.app, acme, 'reception-close', body)).status).toBe(200);
    });

    it('a rejected body sent again counts as a duplicate of the rejection; the corrected document is a new event', async () => {
      const good = uniquePayload('reception-close');
      const bad = JSON.stringify({ ...good, lines: [{ externalCode: 'YOG-NAT-125' }] });
      expect((await postWebhook(svc.app, acme, 'reception-close', bad)).status).toBe(400);
      expect((await postWebhook(svc.app, acme, 'reception-close', bad)).status).toBe(400);
      expect((await rejectedRow('reception-close', bad))?.duplicates).toBe(1);
      const jobs = (await svc.deps.queue.counts(INBOUND_QUEUE)).created;
      expect(await (await postWebhook(svc.app, acme, 'reception-close', good)).json()).toEqual({ success: true });
      expect((await svc.deps.store.inbox.findByKey('acme', `reception-close:${good.closingDocumentCode as string}`))?.status).toBe('received');
      // Rejections never queue processing; the accepted correction does.
      expect((await svc.deps.queue.counts(INBOUND_QUEUE)).created).toBe(jobs + 1);
    });

    it('an unknown webhook kind is 404 and a GET is not a delivery', async () => {
      expect((await postWebhook(svc.app, acme, 'invoice-close', fixture('reception-close'))).status).toBe(404);
      expect((await svc.app.request('/webhooks/acme/reception-close')).status).toBe(404);
    });

    for (const kind of CLOSE_KINDS) {
      it(`${kind}: extra members the spec does not list are accepted and kept in the raw body`, async () => {
        const body = JSON.stringify({ ...uniquePayload(kind), warehouseNote: 'new field in a later WMS version' });
        expect((await postWebhook(svc.app, acme, kind, body)).status).toBe(200);
        expect((await svc.deps.store.inbox.list({ connection: 'acme', kind, limit: 1 }))[0]?.payload).toBe(body);
      });
    }
  });
}
