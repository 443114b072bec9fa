import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { WEBHOOK_KINDS } from './support.js';

describe('the service’s OpenAPI document describes the webhook routes and the ERP feed', () => {
  let svc: TestService;
  let doc: ReturnType<TestService['app']['getOpenAPI31Document']>;

  beforeAll(async () => {
    svc = await startTestService({ label: 'wh-openapi' });
    doc = svc.app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'wms-sync', version: 'test' } });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('has one POST per webhook kind with its WMS payload schema, Basic security and the error statuses', () => {
    const bodies = {
      'reception-close': 'CloseReceptionWebhook',
      'client-return-close': 'CloseReceptionWebhook',
      'shipping-order-close': 'CloseShippingOrderWebhook',
      'supplier-return-close': 'CloseShippingOrderWebhook',
      'stock-regularization': 'StockRegularizationWebhook',
    } as const;
    for (const kind of WEBHOOK_KINDS) {
      const op = doc.paths?.[`/webhooks/{connection}/${kind}`]?.post;
      expect(op, kind).toBeDefined();
      expect(JSON.stringify(op!.requestBody)).toContain(`#/components/schemas/${bodies[kind]}`);
      expect(op!.security).toEqual([{ webhookBasic: [] }]);
      expect(Object.keys(op!.responses ?? {}).sort()).toEqual(['200', '400', '401', '404', '413', '415', '503']);
    }
    expect(doc.components?.securitySchemes?.webhookBasic).toMatchObject({ type: 'http', scheme: 'basic' });
  });

  it('has the ERP feed with its query, bearer security and response schemas', () => {
    const list = doc.paths?.['/erp/v1/feed']?.get;
    expect(list?.parameters?.map((p) => ('name' in p ? p.name : '')).sort()).toEqual(['after', 'limit']);
    expect(JSON.stringify(list?.responses?.['200'])).toContain('#/components/schemas/FeedPage');
    expect(doc.paths?.['/erp/v1/feed/{id}']?.get?.security).toEqual([{ erpBearer: [] }]);
    expect(doc.components?.schemas).toHaveProperty('FeedEntry');
    expect(doc.components?.schemas).toHaveProperty('ErrorBody');
  });
});
