import { describe, expect, it } from 'vitest';
import { WMS_PATHS } from '../../src/wms/index.js';
import { setup } from './support.js';

describe('GET /_emulator/openapi.json and the API reference page', () => {
  it('documents endpoints 1-6, 8-16, 21, option B and the control API, from the wms schemas', async () => {
    const { app } = setup();
    const res = await app.request('/_emulator/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { operationId?: string; responses: Record<string, unknown>; parameters?: { name: string }[] }>
      >;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(operations).toEqual(
      expect.arrayContaining([
        'listProducts',
        'createProduct',
        'updateProduct',
        'getProduct',
        'updateProductObservations',
        'allProductExternalCodes',
        'listDocuments',
        'createDocument',
        'updateDocument',
        'getDocument',
        'cancelDocument',
        'listDeliveryPoints',
        'createDeliveryPoint',
        'updateDeliveryPoint',
        'getDeliveryPoint',
        'issueToken',
        'issueOAuthToken',
      ]),
    );
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([WMS_PATHS.productByExternalCode, '/_emulator/tenants/{tenant}/api-clients']),
    );
    expect(doc.paths[WMS_PATHS.document]!.post!.responses).toHaveProperty('201');
    expect(doc.paths[WMS_PATHS.product]!.get!.parameters!.map((p) => p.name)).toEqual(['criteria', 'pageable']);
    for (const name of [
      'RestAPIProductDTO',
      'RestAPIDocumentDTO',
      'RestAPIDeliveryPointDTO',
      'RestAPIBadRequestExceptionObject',
      'BadRequestAlertException',
      'TokenResponse',
      'ProductCriteria',
      'Pageable',
    ]) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiClientToken', 'emulatorAdmin', 'oauth2']);
  });

  it('serves the API reference page without credentials', async () => {
    const { app } = setup({ adminToken: 'admin' });
    const res = await app.request('/_emulator/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('/_emulator/openapi.json');
    // The script comes from the emulator itself (no credentials needed either), never from a CDN.
    expect(html).toContain('<script src="/_emulator/docs/reference.js">');
    expect(html).not.toContain('cdn.jsdelivr.net');
    const script = await app.request('/_emulator/docs/reference.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
  });
  it('documents endpoints 7 and 17-20 (20 with the OAuth2 scheme only) and the warehouse control API', async () => {
    const { app } = setup();
    const doc = (await (await app.request('/_emulator/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId?: string; security?: Record<string, string[]>[] }>>;
      components: { schemas: Record<string, unknown> };
    };
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(operations).toEqual(
      expect.arrayContaining([
        'queryStock',
        'receptionDifferences',
        'getPackingByExternalCode',
        'getPackingByDocumentCode',
        'storageSystemDispatched',
      ]),
    );
    expect(doc.paths[WMS_PATHS.storageSystemDispatched]!.post!.security).toEqual([{ oauth2: [] }]);
    for (const path of [
      '/_emulator/tenants/{tenant}/receptions/{code}/close',
      '/_emulator/tenants/{tenant}/shipping-orders/{code}/dispatch',
      '/_emulator/tenants/{tenant}/stock/regularizations',
      '/_emulator/tenants/{tenant}/webhook-log/{id}/resend',
      '/_emulator/faults',
      '/_emulator/tenants/{tenant}/tokens/expire',
      '/_emulator/snapshot',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    for (const name of [
      'RestAPIStockDTO',
      'RestAPIReceptionDifferencesDTO',
      'RestAPIClosePackingDTO',
      'CommonResult',
      'EmulatorWebhookSettingsInput',
      'EmulatorFaultInput',
    ]) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
  });
});
