import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/lib/clock.js';
import { createWmsClient, type WmsClient, WmsError } from '../../src/wms-client/index.js';
import { type Credentials, type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';

const T = '/tenants/ops';
const AUDIENCE = 'https://wms.example/api';

/** The WmsError a call ends with (the test fails if it succeeds). */
async function failure(promise: Promise<unknown>): Promise<WmsError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WmsError);
  return err as WmsError;
}

/**
 * Every operation of the client, 1 to 21, against the real emulator over HTTP: each one's happy
 * path and a characteristic error, in the order of the spec's endpoint table.
 */
describe('WMS client: the 21 operations against the emulator', () => {
  let wms: RunningEmulator;
  let creds: Credentials;
  let client: WmsClient;
  /** Option B with the password flow: endpoint 20 takes OAuth2 tokens only. */
  let oauth: WmsClient;
  let orderCode: string;

  const control = async <T = any>(method: string, path: string, json?: unknown): Promise<T> => {
    const res = await wms.control(method, path, json);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  };

  beforeAll(async () => {
    wms = await startEmulator();
    creds = await wms.tenant('ops');
    const options = { timeoutMs: 5000, maxConcurrency: 4, clock: systemClock };
    client = createWmsClient(wmsConnection('ops', wms.url, creds), options);
    const oauthClient = await wms.oauthClient('ops', AUDIENCE);
    const user = await control<{ username: string; password: string }>('POST', `${T}/oauth-users`, {
      username: 'erp@ops',
    });
    oauth = createWmsClient(
      wmsConnection('ops-b', wms.url, oauthClient, {
        wmsAuthMode: 'oauth2',
        wmsAuthUrl: wms.url,
        wmsAudience: AUDIENCE,
        wmsAuthGrant: 'password',
        wmsAuthUsername: user.username,
        wmsAuthPassword: user.password,
      }),
      options,
    );
    await control('POST', `${T}/warehouses`, { code: 'W2', externalCode: 'EXT-W2' });
  });
  afterAll(async () => {
    await wms.close();
  });

  describe('products', () => {
    it('2 create; 400 for a SKU another product has', async () => {
      expect(await client.products.create({ externalCode: 'P1', code: 'SKU-P1', description: 'Plain' })).toMatchObject({
        externalCode: 'P1',
        code: 'SKU-P1',
        active: true,
      });
      const err = await failure(
        client.products.create({ externalCode: 'P1-BIS', code: 'SKU-P1', description: 'Clash' }),
      );
      expect(err).toMatchObject({ status: 400, retryable: false, operation: 'createProduct' });
      expect(err.message).toContain('Product SKU already exists');
    });

    it('3 update, keeping the SKU when code is left out; 400 idnotfound for an unknown product', async () => {
      expect(await client.products.update({ externalCode: 'P1', description: 'Plain, v2' })).toMatchObject({
        description: 'Plain, v2',
        code: 'SKU-P1',
      });
      expect(await failure(client.products.update({ externalCode: 'NOPE', description: 'x' }))).toMatchObject({
        status: 400,
        operation: 'updateProduct',
        body: { errorKey: 'idnotfound' },
      });
    });

    it('4 get; 404 for an unknown product', async () => {
      expect(await client.products.get('P1')).toMatchObject({ externalCode: 'P1', description: 'Plain, v2' });
      expect(await failure(client.products.get('NOPE'))).toMatchObject({
        status: 404,
        retryable: false,
        operation: 'getProduct',
      });
    });

    it('5 update observations; 404 for an unknown product', async () => {
      expect(await client.products.updateObservations('P1', 'Fragile')).toBe(true);
      expect((await client.products.get('P1')).observations).toBe('Fragile');
      expect(await failure(client.products.updateObservations('NOPE', 'x'))).toMatchObject({
        status: 404,
        operation: 'updateProductObservations',
      });
    });

    it('1 list with criteria and a page; 400 for an unknown sort property', async () => {
      await client.products.create({ externalCode: 'P2', description: 'Second' });
      const page = await client.products.list({ sku: { in: ['SKU-P1', 'P2'] } }, { size: 1, sort: ['sku,asc'] });
      expect(page).toMatchObject({ total: 2, page: 0, size: 1, hasNext: true });
      expect(page.items.map((p) => p.externalCode)).toEqual(['P2']);
      expect(await failure(client.products.list({}, { sort: ['nope,asc'] }))).toMatchObject({
        status: 400,
        operation: 'listProducts',
        body: { errorKey: 'sortinvalid' },
      });
    });

    it('6 all external codes; a 500 of the WMS is a retryable error', async () => {
      expect(await client.products.allExternalCodes()).toEqual(['P1', 'P2']);
      await control('POST', '/faults', {
        method: 'GET',
        path: '/api/external/v1/product-all-external-codes',
        status: 500,
        count: 1,
      });
      expect(await failure(client.products.allExternalCodes())).toMatchObject({
        status: 500,
        retryable: true,
        operation: 'productAllExternalCodes',
      });
    });

    it('7 stock; 404 naming an unknown product', async () => {
      await control('POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 10 });
      await control('POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 5, warehouse: 'W2' });
      expect(await client.products.stock({ product: 'P1' })).toMatchObject([
        { product: 'P1', existence: 15, available: 15 },
      ]);
      const err = await failure(client.products.stock({ products: [{ product: 'NOPE' }] }));
      expect(err).toMatchObject({ status: 404, operation: 'productStock' });
      expect(err.message).toContain('NOPE');
    });
  });

  describe('delivery points', () => {
    it('14 create; 400 for an external code that exists', async () => {
      expect(
        await client.deliveryPoints.create({
          externalCode: 'DP1',
          active: true,
          name: 'Client one',
          types: ['CLIENT'],
        }),
      ).toMatchObject({ externalCode: 'DP1' });
      expect(
        await failure(
          client.deliveryPoints.create({ externalCode: 'DP1', active: true, name: 'Again', types: ['CLIENT'] }),
        ),
      ).toMatchObject({ status: 400, operation: 'createDeliveryPoint' });
    });

    it('15 update; 400 idnotfound for an unknown one', async () => {
      expect(
        await client.deliveryPoints.update({ externalCode: 'DP1', active: true, name: 'Client 1', types: ['CLIENT'] }),
      ).toMatchObject({ name: 'Client 1' });
      expect(
        await failure(client.deliveryPoints.update({ externalCode: 'NOPE', active: true, name: 'x', types: [] })),
      ).toMatchObject({ status: 400, body: { errorKey: 'idnotfound' } });
    });

    it('16 get; 404 for an unknown one', async () => {
      expect(await client.deliveryPoints.get('DP1')).toMatchObject({ externalCode: 'DP1', name: 'Client 1' });
      expect(await failure(client.deliveryPoints.get('NOPE'))).toMatchObject({
        status: 404,
        operation: 'getDeliveryPoint',
      });
    });

    it('13 list; 400 for an unknown sort property', async () => {
      expect(
        (await client.deliveryPoints.list({ externalCode: { equals: 'DP1' } })).items.map((d) => d.externalCode),
      ).toEqual(['DP1']);
      expect(await failure(client.deliveryPoints.list({}, { sort: ['nope,asc'] }))).toMatchObject({
        status: 400,
        operation: 'listDeliveryPoints',
      });
    });
  });

  describe('documents', () => {
    const expedition = (externalCode: string, quantity = 4) => ({
      externalCode,
      documentNumber: `N-${externalCode}`,
      documentType: 'CLIENT_EXPEDITION' as const,
      deliveryPointExternalCode: 'DP1',
      lines: [{ lineNumber: 1, quantity, productExternalCode: 'P1' }],
    });

    it('9 create (repeated: the same document, spec: "Endpoint 9 uses externalCode as idempotency key"); 400 naming a product the WMS lacks', async () => {
      const first = await client.documents.create(expedition('CE-1'));
      expect(await client.documents.create(expedition('CE-1'))).toEqual(first);
      const err = await failure(
        client.documents.create({
          ...expedition('CE-X'),
          lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'GHOST' }],
        }),
      );
      expect(err).toMatchObject({ status: 400, operation: 'createDocument' });
      expect(err.message).toContain('GHOST');
    });

    it('10 update; 409 once the document can no longer change (cancelled), retryable', async () => {
      expect((await client.documents.update(expedition('CE-1', 3))).lines).toMatchObject([{ quantity: 3 }]);
      await client.documents.create(expedition('CE-C'));
      expect(await client.documents.cancel({ externalCode: 'CE-C', documentType: 'CLIENT_EXPEDITION' })).toMatchObject({
        success: true,
      });
      expect(await failure(client.documents.update(expedition('CE-C', 1)))).toMatchObject({
        status: 409,
        retryable: true,
        operation: 'updateDocument',
      });
    });

    it('11 get; 404 for an unknown document', async () => {
      expect(await client.documents.get('CE-1')).toMatchObject({
        externalCode: 'CE-1',
        documentType: 'CLIENT_EXPEDITION',
      });
      expect(await failure(client.documents.get('NOPE'))).toMatchObject({ status: 404, operation: 'getDocument' });
    });

    it('12 cancel; 404 when the document type does not match', async () => {
      await client.documents.create(expedition('CE-2'));
      expect(await client.documents.cancel({ externalCode: 'CE-2', documentType: 'CLIENT_EXPEDITION' })).toMatchObject({
        success: true,
      });
      expect(
        await failure(client.documents.cancel({ externalCode: 'CE-1', documentType: 'PURCHASE_ORDER' })),
      ).toMatchObject({ status: 404, operation: 'cancelDocument' });
    });

    it('8 list; 400 for an unknown sort property', async () => {
      const page = await client.documents.list(
        { externalCode: { in: ['CE-1', 'CE-2'] } },
        { sort: ['externalCode,asc'] },
      );
      expect(page.items.map((d) => d.externalCode)).toEqual(['CE-1', 'CE-2']);
      expect(await failure(client.documents.list({}, { sort: ['nope,asc'] }))).toMatchObject({
        status: 400,
        operation: 'listDocuments',
      });
    });
  });

  describe('warehouse', () => {
    it('17 reception differences; 404 for an unknown reception', async () => {
      await client.documents.create({
        externalCode: 'PO-1',
        documentNumber: 'N-PO-1',
        documentType: 'PURCHASE_ORDER',
        lines: [{ lineNumber: 1, quantity: 5, productExternalCode: 'P2' }],
      });
      const { receptionCode } = await control<{ receptionCode: string }>('POST', `${T}/receptions`, {
        documents: ['PO-1'],
      });
      await control('POST', `${T}/receptions/${receptionCode}/lines`, { productExternalCode: 'P2', quantity: 3 });
      // spec: "positive = surplus, negative = shortage"
      expect(await client.warehouse.receptionDifferences(receptionCode)).toMatchObject({
        receptionCode,
        productDifferences: [{ productExternalCode: 'P2', quantity: -2 }],
      });
      expect(await failure(client.warehouse.receptionDifferences('REC1999-1'))).toMatchObject({
        status: 404,
        operation: 'receptionDifferences',
      });
    });

    it('18 packing by external code, as the array the emulator answers, naming the warehouse by its code or external code; 404 for an unknown warehouse', async () => {
      await client.documents.create({
        ...{ externalCode: 'CE-W2', documentNumber: 'N-CE-W2', documentType: 'CLIENT_EXPEDITION' as const },
        lines: [{ lineNumber: 1, quantity: 2, productExternalCode: 'P1' }],
      });
      orderCode = (
        await control<{ shippingOrderCode: string }>('POST', `${T}/shipping-orders`, {
          document: 'CE-W2',
          warehouse: 'W2',
        })
      ).shippingOrderCode;
      await control('POST', `${T}/shipping-orders/${orderCode}/pick`);
      await control('POST', `${T}/shipping-orders/${orderCode}/pack`, {
        packings: [{ grossWeight: 2.5, lines: [{ productExternalCode: 'P1', quantity: 2 }] }],
      });
      const packings = await client.warehouse.packingByExternalCode({ warehouse: 'W2', externalCode: 'CE-W2' });
      expect(packings).toMatchObject([{ productExternalCode: 'P1', bulk: 2, grossWeight: 2.5 }]);
      expect(await client.warehouse.packingByExternalCode({ warehouse: 'EXT-W2', externalCode: 'CE-W2' })).toEqual(
        packings,
      );
      expect(
        await failure(client.warehouse.packingByExternalCode({ warehouse: 'NOWHERE', externalCode: 'CE-W2' })),
      ).toMatchObject({
        status: 404,
        operation: 'packingByExternalCode',
        body: { entityName: 'warehouse' },
      });
    });

    it('19 packing by the WMS document code; 404 for an unknown document code', async () => {
      const { document } = await control<{ document: { code: string } }>('GET', `${T}/shipping-orders/${orderCode}`);
      const packings = await client.warehouse.packingByDocumentCode({
        warehouse: 'EXT-W2',
        documentCode: document.code,
      });
      expect(packings).toMatchObject([{ productExternalCode: 'P1', bulk: 2 }]);
      expect(
        await failure(client.warehouse.packingByDocumentCode({ warehouse: 'W2', documentCode: 'CE1999/1' })),
      ).toMatchObject({
        status: 404,
        operation: 'packingByDocumentCode',
        body: { entityName: 'shippingOrder' },
      });
    });

    it('20 storage-system dispatched with an OAuth2 token (spec rule 4); 403 with an API client token', async () => {
      const line = {
        orderNumber: orderCode,
        lineNumber: 1,
        productCode: 'SKU-P1',
        quantity: 2,
        dispatchedDate: '2026-03-02T10:00:00Z',
      };
      expect(await failure(client.warehouse.storageSystemDispatched([line]))).toMatchObject({
        status: 403,
        retryable: false,
        operation: 'storageSystemDispatched',
      });
      expect(await oauth.warehouse.storageSystemDispatched([line])).toMatchObject({
        success: true,
        orderName: orderCode,
      });
      expect((await control<{ status: string }>('GET', `${T}/shipping-orders/${orderCode}`)).status).toBe('DISPATCHED');
    });
  });

  describe('token (21)', () => {
    it('a Bearer token valid an hour; 401 invalid_client for a wrong secret, not retryable', async () => {
      const fresh = createWmsClient(wmsConnection('ops-token', wms.url, creds), {
        timeoutMs: 5000,
        maxConcurrency: 1,
        clock: systemClock,
      });
      expect(await fresh.tokens.token()).toMatch(/^eyJ/);
      expect(fresh.tokens.expiresInSeconds()).toBe(3600);
      const wrong = createWmsClient(wmsConnection('ops-wrong', wms.url, { ...creds, clientSecret: 'wrong' }), {
        timeoutMs: 5000,
        maxConcurrency: 1,
        clock: systemClock,
      });
      expect(await failure(wrong.tokens.token())).toMatchObject({
        status: 401,
        retryable: false,
        body: { error: 'invalid_client' },
      });
    });
  });
});
