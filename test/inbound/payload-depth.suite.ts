import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectedKeyOf } from '../../src/inbound/dedupe.js';
import { MAX_PAYLOAD_DEPTH } from '../../src/lib/nul.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { postWebhook, uniquePayload, WEBHOOK_KINDS } from './support.js';

/** `{"x":{"x":…leaf}}` with `levels` objects, as JSON text (built as text: no recursion anywhere). */
function deepMember(levels: number, leaf = '1'): string {
  return `${'{"x":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;
}

/** A valid payload of the kind with one extra member nested `levels` deep (unknown members are kept in the raw body). */
function withDeepMember(kind: (typeof WEBHOOK_KINDS)[number], levels: number, leaf?: string): string {
  const text = JSON.stringify(uniquePayload(kind, 'DEEP'));
  return `${text.slice(0, -1)},"extra":${deepMember(levels, leaf)}}`;
}

/**
 * Nesting beyond MAX_PAYLOAD_DEPTH is refused with a 400 naming the limit, and the webhook is
 * stored as rejected (docs/webhooks.md: refused webhooks are kept for the operator). A depth of
 * thousands with U+0000 at the bottom used to overflow the stack of the U+0000 check: 500, nothing
 * stored, and a message listing every level.
 */
export function payloadDepthSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`webhook routes: payload nesting depth (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');

    beforeAll(async () => {
      svc = await startTestService({ label: 'wh-depth', dialect, connections: [acme] });
    });
    afterAll(() => svc.close());

    for (const kind of WEBHOOK_KINDS.filter((k) => k !== 'stock-regularization')) {
      it(`${kind}: 6,000 levels holding U+0000 → 400 naming the limit, a short message, stored as rejected`, async () => {
        const body = withDeepMember(kind, 6000, '"a\\u0000b"');
        const res = await postWebhook(svc.app, acme, kind, body);
        expect(res.status).toBe(400);
        const answer = (await res.json()) as { success: boolean; error: string; message: string };
        expect(answer).toMatchObject({ success: false, error: 'validation_failed' });
        expect(answer.message).toContain(`more than ${MAX_PAYLOAD_DEPTH} levels`);
        expect(answer.message.length).toBeLessThan(200);
        expect(await svc.deps.store.inbox.findByKey('acme', rejectedKeyOf(kind, body))).toMatchObject({
          status: 'rejected',
          payload: body,
          error: answer.message,
        });
      });
    }

    it(`a payload exactly ${MAX_PAYLOAD_DEPTH} levels deep is accepted`, async () => {
      // the body is one level, so the extra member may nest one level less
      const res = await postWebhook(
        svc.app,
        acme,
        'reception-close',
        withDeepMember('reception-close', MAX_PAYLOAD_DEPTH - 1),
      );
      expect(res.status).toBe(200);
    });

    it('a stock regularization is never refused for a deep member it does not need (the WMS never re-sends one): acknowledged, stored and processed', async () => {
      // spec, Events obligation 5: "A failed stock regularization delivery is not shown to the operator and cannot be re-sent"
      const body = withDeepMember('stock-regularization', 6000, '"a\\u0000b"');
      const res = await postWebhook(svc.app, acme, 'stock-regularization', body);
      expect(res.status).toBe(200);
      const stored = await svc.deps.store.inbox.list({ connection: 'acme', kind: 'stock-regularization', limit: 10 });
      expect(stored.find((e) => e.payload === body)).toMatchObject({ status: 'received' });
    });

    it('3,000 levels without U+0000 are refused as well; the message names at most a short path', async () => {
      const body = withDeepMember('reception-close', 3000);
      const res = await postWebhook(svc.app, acme, 'reception-close', body);
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { message: string; details: { path: string }[] };
      expect(answer.details[0]!.path).toBe('extra.x.x.x.x.x.x.x…');
    });
  });
}
