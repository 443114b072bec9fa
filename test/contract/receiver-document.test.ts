import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook, uniquePayload } from '../inbound/support.js';
import { startTestService, type TestService } from '../support/service.js';

type Schema = { required?: string[]; properties?: Record<string, unknown> };

/*
 * Spec, "Webhooks": every member of the payloads is optional. The document marks as required only
 * what the receiver refuses or quarantines without, and the receiver answers 200 to the rest.
 */
describe("the receiver's document says what it accepts", () => {
  let svc: TestService;
  let schemas: Record<string, Schema>;
  beforeAll(async () => {
    svc = await startTestService({ label: 'receiver-document' });
    const doc = (await (await svc.app.request('/openapi.json')).json()) as {
      components: { schemas: Record<string, Schema> };
    };
    schemas = doc.components.schemas;
  });
  afterAll(() => svc.close());

  it('does not require documentExternalCode, documentType or movementTime', () => {
    for (const name of ['CloseReceptionWebhook', 'CloseShippingOrderWebhook']) {
      expect(schemas[name]?.required, name).toEqual(['closingDocumentCode', 'lines']);
      expect(schemas[name]?.properties, name).toHaveProperty('documentExternalCode');
      expect(schemas[name]?.properties, name).toHaveProperty('documentType');
    }
    expect(schemas.StockRegularizationWebhook?.required).toEqual(['productExternalCode', 'quantity']);
  });

  for (const form of ['null', 'absent'] as const) {
    it(`acknowledges close documents with documentExternalCode and documentType ${form}`, async () => {
      const [connection] = svc.deps.connections.all();
      for (const kind of ['reception-close', 'shipping-order-close'] as const) {
        const body = uniquePayload(kind, `doc-${form}`);
        for (const key of ['documentExternalCode', 'documentType']) {
          if (form === 'null') body[key] = null;
          else delete body[key];
        }
        const res = await postWebhook(svc.app, connection!, kind, body);
        expect(res.status, kind).toBe(200);
      }
    });

    it(`acknowledges a stock regularization with movementTime ${form}`, async () => {
      const [connection] = svc.deps.connections.all();
      const body = uniquePayload('stock-regularization');
      if (form === 'null') body.movementTime = null;
      else delete body.movementTime;
      const res = await postWebhook(svc.app, connection!, 'stock-regularization', body);
      expect(res.status).toBe(200);
    });
  }
});
