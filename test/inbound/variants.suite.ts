import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundEvent } from '../../src/store/types.js';
import { startTestService, type TestService, testConnection } from '../support/service.js';
import { until } from '../support/wait.js';
import { postWebhook } from './support.js';

/**
 * fixtures/webhooks/variants/: spec-legal (and a few unusable) forms a real WMS may send, each
 * written by hand from the spec with its expected outcome and, when processed, the canonical feed
 * entry. They are the evidence independent of our own reader.
 */
interface VariantCase {
  description: string;
  kind: string;
  contentType?: string | null;
  body?: unknown;
  bodyText?: string;
  expect:
    | { outcome: 'processed'; feed: { type: string; data: Record<string, unknown> } }
    | { outcome: 'quarantined'; reason: string }
    | { outcome: 'refused'; status: number; message: string };
}

const DIR = new URL('../../fixtures/webhooks/variants/', import.meta.url);
export const VARIANTS: [string, VariantCase][] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as VariantCase]);

export function variantsSuite(dialect: 'sqlite' | 'postgres'): void {
  describe(`the corpus of webhook variants, through HTTP (${dialect})`, () => {
    let svc: TestService;
    const acme = testConnection('acme');
    const eventOf = new Map<
      string,
      { status: number; body: { success: boolean; message?: string }; event: InboundEvent }
    >();

    beforeAll(async () => {
      svc = await startTestService({
        label: 'variants',
        dialect,
        connections: [acme],
        env: { QUEUE_POLL_INTERVAL_MS: '50' },
        worker: true,
      });
      // Sent one after the other, so the newest stored row after each is that webhook's.
      for (const [file, c] of VARIANTS) {
        const res = await postWebhook(svc.app, acme, c.kind, c.bodyText ?? JSON.stringify(c.body), {
          contentType: c.contentType === undefined ? 'application/json' : c.contentType,
        });
        const [event] = await svc.deps.store.inbox.list({ connection: 'acme', limit: 1 });
        eventOf.set(file, {
          status: res.status,
          body: (await res.json()) as { success: boolean; message?: string },
          event: event!,
        });
      }
      const ids = [...eventOf.values()].map((e) => e.event.id);
      expect(new Set(ids).size).toBe(VARIANTS.length);
    });
    afterAll(async () => {
      await svc.close();
    });

    it('holds at least 40 cases over the five kinds and the three outcomes', () => {
      expect(VARIANTS.length).toBeGreaterThanOrEqual(40);
      expect(new Set(VARIANTS.map(([, c]) => c.kind)).size).toBe(5);
      expect(new Set(VARIANTS.map(([, c]) => c.expect.outcome))).toEqual(
        new Set(['processed', 'quarantined', 'refused']),
      );
    });

    it.each(VARIANTS)('%s', async (file, c) => {
      const got = eventOf.get(file)!;
      if (c.expect.outcome === 'refused') {
        expect(got.status).toBe(c.expect.status);
        expect(got.body.success).toBe(false);
        expect(got.body.message).toContain(c.expect.message);
        expect(got.event.status).toBe('rejected');
        return;
      }
      // spec: "The receiver answers with a 2xx status to acknowledge"
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ success: true });
      expect(got.event.payload).toBe(c.bodyText ?? JSON.stringify(c.body));
      if (c.expect.outcome === 'quarantined') {
        expect(got.event.status).toBe('quarantined');
        expect(got.event.quarantineReason).toContain(c.expect.reason);
        expect(await svc.deps.store.feed.bySourceEvent(got.event.id)).toEqual([]);
        return;
      }
      const processed = await until(
        async () => ((await svc.deps.store.inbox.get(got.event.id))?.status === 'processed' ? true : undefined),
        { message: `${file} processed` },
      );
      expect(processed).toBe(true);
      const [feedEntry, ...more] = await svc.deps.store.feed.bySourceEvent(got.event.id);
      expect(more).toEqual([]);
      const { eventId, receivedAt, ...data } = feedEntry!.data;
      expect(eventId).toBe(got.event.id);
      expect(receivedAt).toBe(got.event.receivedAt.toISOString());
      expect({ type: feedEntry!.type, data }).toEqual(c.expect.feed);
    });

    // spec (Events, obligation 5): "A failed stock regularization delivery is not shown to the
    // operator and cannot be re-sent" — so an authenticated JSON one is never answered non-2xx.
    it('property: no authenticated JSON stock regularization is ever answered with a non-2xx status', async () => {
      const anything = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined));
      const regularizationLike = fc.record(
        {
          productExternalCode: anything,
          lotCode: anything,
          quantity: fc.oneof(fc.double(), fc.string(), anything),
          movementTime: fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.string(),
            anything,
          ),
          warehouse: anything,
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.jsonValue({ maxDepth: 3 }), regularizationLike),
          fc.constantFrom('application/json', 'text/plain', null),
          async (body, contentType) => {
            const res = await postWebhook(svc.app, acme, 'stock-regularization', JSON.stringify(body) ?? 'null', {
              contentType,
            });
            expect(res.status).toBe(200);
            expect(((await res.json()) as { success: boolean }).success).toBe(true);
          },
        ),
        { numRuns: 120 },
      );
    });
  });
}
