import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedEntrySchema } from '../../src/erp/feed/entry-schemas.js';
import { FEED_ENTRY_TYPES } from '../../src/store/values.js';
import { postWebhook, uniquePayload, WEBHOOK_KINDS } from '../inbound/support.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/wait.js';

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
}

describe("the service's document lists what the ERP receives as OpenAPI webhooks", () => {
  let svc: TestService;
  let webhooks: Record<string, { post: Operation }>;
  let schemas: Record<string, { properties?: Record<string, unknown> }>;
  beforeAll(async () => {
    svc = await startTestService({ label: 'openapi-webhooks', worker: true });
    const doc = (await (await svc.app.request('/openapi.json')).json()) as {
      webhooks: typeof webhooks;
      components: { schemas: typeof schemas };
    };
    webhooks = doc.webhooks;
    schemas = doc.components.schemas;
  });
  afterAll(() => svc.close());

  it('has one entry per feed type and the close-document question, each with the signature headers', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...FEED_ENTRY_TYPES, 'close_document.received'].sort());
    for (const [type, { post }] of Object.entries(webhooks)) {
      expect(post.operationId, type).toMatch(/^on[A-Z][a-zA-Z]+$/);
      expect(post.parameters.filter((p) => p.in === 'header' && p.required).map((p) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
    expect(webhooks['stock.drift']?.post.requestBody.content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/StockDriftEntry',
    );
  });

  it('says a close-document question is refused with {success:false, message}', () => {
    const answer = webhooks['close_document.received']?.post.responses['200'];
    expect(answer?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/CloseDocumentRefusal');
    expect(schemas.CloseDocumentRefusal?.properties).toHaveProperty('success', { type: 'boolean', enum: [false] });
    expect(schemas.CloseDocumentReceived?.properties).toHaveProperty('data');
  });

  it("the feed's items are the webhooks' bodies: FeedEntry is one of the per-type entries", () => {
    const feedEntry = schemas.FeedEntry as { oneOf: { $ref: string }[] };
    const bodies = FEED_ENTRY_TYPES.map((t) => webhooks[t]?.post.requestBody.content['application/json']?.schema.$ref);
    expect(feedEntry.oneOf.map((r) => r.$ref).sort()).toEqual([...new Set(bodies)].sort());
  });

  it('the entries processing writes match those schemas', async () => {
    const [connection] = svc.deps.connections.all();
    for (const kind of WEBHOOK_KINDS) {
      expect((await postWebhook(svc.app, connection!, kind, uniquePayload(kind, 'wh-doc'))).status).toBe(200);
    }
    const auth = { authorization: `Bearer ${connection!.erpApiToken}` };
    const page = await until(async () => {
      const body = (await (await svc.app.request('/erp/v1/feed?limit=100', { headers: auth })).json()) as {
        entries: unknown[];
      };
      return body.entries.length >= WEBHOOK_KINDS.length ? body : undefined;
    });
    for (const entry of page.entries) expect(feedEntrySchema.safeParse(entry).error).toBeUndefined();
  });
});
