import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectedKeyOf } from '../../src/inbound/dedupe.js';
import { INBOUND_QUEUE } from '../../src/inbound/queue.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { authOf, CLOSE_KINDS, fixture, postWebhook, uniquePayload, type WebhookKind } from './support.js';

const LIMIT = 4096;

/** Refused webhooks (only what cannot be identified) and quarantined ones (stored, acknowledged, not processable as they are). */
export function webhooksErrorsSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`webhook routes, refused and quarantined webhooks (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');

    beforeAll(async () => {
      svc = await startTestService({
        label: 'wh-errors',
        dialect,
        connections: [acme],
        env: { BODY_LIMIT_BYTES: String(LIMIT) },
      });
    });
    afterAll(async () => {
      await svc.close();
    });

    const rejectedRow = (kind: WebhookKind, body: string) =>
      svc.deps.store.inbox.findByKey('acme', rejectedKeyOf(kind, body));
    const jobs = async () => (await svc.deps.queue.counts(INBOUND_QUEUE)).created;
    const latest = async (kind: WebhookKind) =>
      (await svc.deps.store.inbox.list({ connection: 'acme', kind, limit: 1 }))[0]!;

    const unusableCodes: [string, unknown][] = [
      ['absent', undefined],
      ['null', null],
      ['""', ''],
      ['blank', '   '],
      ['a number', 4512],
      ['NUL in it', 'REC\u0000X'],
    ];
    for (const kind of CLOSE_KINDS) {
      for (const [what, code] of unusableCodes) {
        // spec: "To reject a close document, the receiver returns a body with success = false and message"
        it(`${kind}: closingDocumentCode ${what} → 400 {success:false, message naming closingDocumentCode}, stored as rejected`, async () => {
          const body = JSON.stringify({ ...uniquePayload(kind), closingDocumentCode: code });
          const before = await jobs();
          const res = await postWebhook(svc.app, acme, kind, body);
          expect(res.status).toBe(400);
          const answer = (await res.json()) as {
            success: boolean;
            error: string;
            message: string;
            details: { path: string }[];
          };
          expect(answer).toMatchObject({ success: false, error: 'validation_failed' });
          expect(answer.message).toMatch(/^closingDocumentCode: /);
          expect(answer.details.map((d) => d.path)).toEqual(['closingDocumentCode']);
          expect(await rejectedRow(kind, body)).toMatchObject({
            status: 'rejected',
            payload: body,
            error: answer.message,
          });
          expect(await jobs()).toBe(before);
        });
      }
    }

    for (const body of ['[]', 'null', '42', '"REC-1"']) {
      it(`reception-close: the JSON ${body} → 400 naming (body), stored as rejected`, async () => {
        const res = await postWebhook(svc.app, acme, 'reception-close', body);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          success: false,
          message: expect.stringMatching(/^\(body\): expected a JSON object/),
        });
        expect((await rejectedRow('reception-close', body))?.status).toBe('rejected');
      });
    }

    // spec: "A failed stock regularization delivery is not shown to the operator and cannot be re-sent"
    const unusableRegularizations: [string, string, string][] = [
      ['an empty array', '[]', '(body): expected a JSON object, got an array'],
      ['a number', '42', '(body): expected a JSON object, got a number'],
      ['an empty object', '{}', 'productExternalCode: missing'],
      [
        'no product',
        JSON.stringify({ quantity: -3, movementTime: '2026-11-22T16:41:07+01:00' }),
        'productExternalCode: missing',
      ],
      [
        'a quantity that is not a number',
        JSON.stringify({ productExternalCode: 'OIL', quantity: 'three', movementTime: '2026-11-22T16:41:07Z' }),
        'quantity: expected a number, got "three"',
      ],
      [
        'a movementTime without offset',
        JSON.stringify({ productExternalCode: 'OIL', quantity: 1, movementTime: '2026-11-22T16:41:07' }),
        'movementTime: expected an ISO 8601 date-time with offset',
      ],
      [
        'NUL in the product code',
        JSON.stringify({ productExternalCode: 'OIL\u0000', quantity: 1, movementTime: '2026-11-22T16:41:07Z' }),
        'productExternalCode: must not contain the NUL character',
      ],
    ];
    for (const [what, body, reason] of unusableRegularizations) {
      it(`stock-regularization: ${what} → 200, stored as quarantined with the reason, no processing job`, async () => {
        const before = await jobs();
        const res = await postWebhook(svc.app, acme, 'stock-regularization', body);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ success: true });
        const event = await latest('stock-regularization');
        expect(event).toMatchObject({ status: 'quarantined', payload: body });
        expect(event.quarantineReason).toContain(reason);
        expect(await jobs()).toBe(before);
      });
    }

    const quarantinedDocuments: [string, WebhookKind, (p: Record<string, unknown>) => unknown, string][] = [
      [
        'a line without a product',
        'reception-close',
        (p) => ({ ...p, lines: [{ quantity: 3 }] }),
        'lines[0].externalCode: missing: a line without a product',
      ],
      [
        'a line without a quantity',
        'shipping-order-close',
        (p) => ({ ...p, lines: [{ externalCode: 'A' }] }),
        'lines[0].quantity: missing',
      ],
      [
        'a quantity that is not a number',
        'client-return-close',
        (p) => ({ ...p, lines: [{ externalCode: 'A', quantity: '3 units' }] }),
        'lines[0].quantity: expected a number',
      ],
      [
        'an impossible receptionDate',
        'reception-close',
        (p) => ({ ...p, receptionDate: '2026-02-30' }),
        'receptionDate: expected a date',
      ],
      [
        'a packing weight that is not a number',
        'supplier-return-close',
        (p) => ({ ...p, packingList: [{ packingCode: 'P', weight: 'heavy' }] }),
        'packingList[0].weight: expected a number',
      ],
      [
        'serialNumbers that are not strings',
        'reception-close',
        (p) => ({ ...p, lines: [{ externalCode: 'A', quantity: 1, serialNumbers: [1] }] }),
        'lines[0].serialNumbers[0]: expected a string',
      ],
      [
        'NUL in observations',
        'shipping-order-close',
        (p) => ({ ...p, observations: 'dock\u00003' }),
        'observations: must not contain the NUL character',
      ],
    ];
    for (const [what, kind, change, reason] of quarantinedDocuments) {
      it(`${kind}: ${what} → 200, stored as quarantined naming the field, no processing job`, async () => {
        const payload = change(uniquePayload(kind)) as Record<string, unknown>;
        const before = await jobs();
        const res = await postWebhook(svc.app, acme, kind, payload);
        expect(res.status).toBe(200);
        const event = await svc.deps.store.inbox.findByKey('acme', `${kind}:${payload.closingDocumentCode as string}`);
        expect(event).toMatchObject({
          status: 'quarantined',
          businessCode: payload.closingDocumentCode,
          payload: JSON.stringify(payload),
        });
        expect(event!.quarantineReason).toContain(reason);
        expect(await jobs()).toBe(before);
      });
    }

    for (const kind of ['reception-close', 'stock-regularization'] as const) {
      for (const body of ['{"closingDocumentCode": "X", ', '', 'closingDocumentCode=X']) {
        it(`${kind}: malformed JSON ${JSON.stringify(body)} → 400 malformed_json, stored as rejected`, async () => {
          const res = await postWebhook(svc.app, acme, kind, body);
          expect(res.status).toBe(400);
          expect(await res.json()).toMatchObject({
            success: false,
            error: 'malformed_json',
            message: expect.stringMatching(/not valid JSON/),
          });
          expect(await rejectedRow(kind, body)).toMatchObject({ status: 'rejected', payload: body });
        });
      }
    }

    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      it(`content type ${contentType ?? '(none)'} with a body that is not JSON → 415, stored as rejected`, async () => {
        const body = 'closingDocumentCode=EXP-1';
        const res = await postWebhook(svc.app, acme, 'shipping-order-close', body, { contentType });
        expect(res.status).toBe(415);
        expect(await res.json()).toMatchObject({
          success: false,
          error: 'unsupported_media_type',
          message: 'Content-Type must be application/json',
        });
        expect((await rejectedRow('shipping-order-close', body))?.error).toMatch(/Content-Type/);
      });
    }

    for (const kind of ['shipping-order-close', 'stock-regularization'] as const) {
      it(`${kind}: a JSON body under another content type is read all the same (a refused regularization would be lost)`, async () => {
        const payload = uniquePayload(kind);
        const res = await postWebhook(svc.app, acme, kind, payload, { contentType: 'text/plain' });
        expect(res.status).toBe(200);
        expect(await latest(kind)).toMatchObject({ status: 'received', payload: JSON.stringify(payload) });
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
      expect(
        (await svc.deps.store.inbox.findByKey('acme', `reception-close:${payload.closingDocumentCode as string}`))
          ?.payload,
      ).toBe(JSON.stringify(payload));
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
      // The WMS's operator sees the refusal and sends the document again, this time with its code.
      const bad = JSON.stringify({
        ...good,
        closingDocumentCode: ' ',
        observations: `refused first: ${good.closingDocumentCode as string}`,
      });
      expect((await postWebhook(svc.app, acme, 'reception-close', bad)).status).toBe(400);
      expect((await postWebhook(svc.app, acme, 'reception-close', bad)).status).toBe(400);
      expect((await rejectedRow('reception-close', bad))?.duplicates).toBe(1);
      const jobs = (await svc.deps.queue.counts(INBOUND_QUEUE)).created;
      expect(await (await postWebhook(svc.app, acme, 'reception-close', good)).json()).toEqual({ success: true });
      expect(
        (await svc.deps.store.inbox.findByKey('acme', `reception-close:${good.closingDocumentCode as string}`))?.status,
      ).toBe('received');
      // Rejections never queue processing; the accepted correction does.
      expect((await svc.deps.queue.counts(INBOUND_QUEUE)).created).toBe(jobs + 1);
    });

    it('an unknown webhook kind is 404 and a GET is not a webhook', async () => {
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
