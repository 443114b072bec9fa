import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/lib/clock.js';
import { createWmsClient, type WmsClient, WmsError } from '../../src/wms-client/index.js';
import { type Credentials, type RunningEmulator, startEmulator, wmsConnection } from '../support/emulator.js';
import { type FaultyProxy, startFaultyProxy } from '../support/faulty-proxy.js';
import { until } from '../support/wait.js';

// The client against the real emulator over HTTP, through a proxy that can misbehave.
describe('WMS client against the emulator', () => {
  let wms: RunningEmulator;
  let proxy: FaultyProxy;
  let client: WmsClient;
  let creds: Credentials;
  const API = '/api/external/v1';

  const error = async (promise: Promise<unknown>): Promise<WmsError> => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WmsError);
    return err as WmsError;
  };

  beforeAll(async () => {
    wms = await startEmulator();
    proxy = await startFaultyProxy(wms.url);
    creds = await wms.tenant('client-test');
    // A long timeout: a short one fires by accident on a busy machine. The timeout test has its own client.
    client = createWmsClient(wmsConnection('c', proxy.url, creds), {
      timeoutMs: 10_000,
      maxConcurrency: 4,
      clock: systemClock,
    });
  });
  afterAll(async () => {
    await proxy.close();
    await wms.close();
  });

  describe('products (endpoints 1-6)', () => {
    it('creates, reads, updates, sets observations and lists the external codes', async () => {
      const created = await client.products.create({
        externalCode: 'OIL-1',
        description: 'Olive oil 1 L',
        code: 'SKU-OIL-1',
        barcodes: [{ code: '5601', type: 'GTIN' }],
      });
      expect(created).toMatchObject({ externalCode: 'OIL-1', active: true, code: 'SKU-OIL-1' });
      await client.products.update({ externalCode: 'OIL-1', description: 'Olive oil, 1 L', code: 'SKU-OIL-1' });
      expect((await client.products.get('OIL-1')).description).toBe('Olive oil, 1 L');
      expect(await client.products.updateObservations('OIL-1', 'Keep away from light')).toBe(true);
      expect((await client.products.get('OIL-1')).observations).toBe('Keep away from light');
      expect(await client.products.allExternalCodes()).toContain('OIL-1');
    });

    it("turns the WMS's 400 into a WmsError that cannot be retried, with the spec's body", async () => {
      await client.products.create({ externalCode: 'SKU-A', description: 'A', code: 'DUP-SKU' });
      const err = await error(client.products.create({ externalCode: 'SKU-B', description: 'B', code: 'DUP-SKU' }));
      expect(err).toMatchObject({ kind: 'http', status: 400, retryable: false, operation: 'createProduct' });
      expect(err.body).toMatchObject({ status: '400', title: 'Product SKU already exists' });
      expect(err.message).toContain('Product SKU already exists');
    });

    it('404 for an unknown product, not retryable', async () => {
      const refused = client.callTally().refused;
      expect(await error(client.products.get('NOPE'))).toMatchObject({
        status: 404,
        retryable: false,
        operation: 'getProduct',
      });
      expect(client.callTally().refused).toBe(refused + 1);
    });

    it('lists a page with criteria: X-Total-Count and Link read into the page, then iterates every page', async () => {
      for (let i = 0; i < 7; i++)
        await client.products.create({ externalCode: `LIST-${i}`, description: `Listed ${i}` });
      const page = await client.products.list(
        { description: { contains: 'Listed' } },
        { page: 1, size: 3, sort: ['description,asc'] },
      );
      expect(page).toMatchObject({ total: 7, page: 1, size: 3, hasNext: true });
      expect(page.items.map((p) => p.externalCode)).toEqual(['LIST-3', 'LIST-4', 'LIST-5']);
      expect(page.links.next).toContain('page=2');
      const codes: string[] = [];
      for await (const p of client.products.iterate(
        { description: { contains: 'Listed' } },
        { size: 2, sort: ['description,asc'] },
      ))
        codes.push(p.externalCode);
      expect(codes).toEqual(Array.from({ length: 7 }, (_, i) => `LIST-${i}`));
    });
  });

  describe('documents and delivery points (endpoints 8-16)', () => {
    it('creates a delivery point and a document; a repeated create returns the same document', async () => {
      await client.deliveryPoints.create({
        externalCode: 'CLI-1',
        active: true,
        name: 'Client One',
        types: ['CLIENT'],
      });
      await client.deliveryPoints.update({ externalCode: 'CLI-1', active: true, name: 'Client 1', types: ['CLIENT'] });
      expect((await client.deliveryPoints.get('CLI-1')).name).toBe('Client 1');
      expect((await client.deliveryPoints.list({ externalCode: { equals: 'CLI-1' } })).items).toHaveLength(1);

      await client.products.create({ externalCode: 'DOC-P', description: 'For documents' });
      const doc = {
        externalCode: 'SO-1',
        documentNumber: '2026/1',
        documentType: 'CLIENT_EXPEDITION' as const,
        deliveryPointExternalCode: 'CLI-1',
        lines: [{ lineNumber: 1, quantity: 2, productExternalCode: 'DOC-P' }],
      };
      const first = await client.documents.create(doc);
      // spec: "Endpoint 9 uses externalCode as idempotency key."
      const repeat = await client.documents.create({ ...doc, documentNumber: 'changed' });
      expect(repeat).toEqual(first);
      await client.documents.update({ ...doc, reference: 'REF-9' });
      expect((await client.documents.get('SO-1')).reference).toBe('REF-9');
      expect((await client.documents.list({ externalCode: { equals: 'SO-1' } })).total).toBe(1);
      expect(await client.documents.cancel({ externalCode: 'SO-1', documentType: 'CLIENT_EXPEDITION' })).toMatchObject({
        success: true,
      });
      expect((await client.documents.get('SO-1')).externalCode).toBe('SO-1');
    });

    it('a document naming a product the WMS lacks is a 400 naming it', async () => {
      const err = await error(
        client.documents.create({
          externalCode: 'PO-X',
          documentNumber: '1',
          documentType: 'PURCHASE_ORDER',
          lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'GHOST' }],
        }),
      );
      expect(err.status).toBe(400);
      expect(err.message).toContain('GHOST');
    });
  });

  describe('failures the WMS does not choose', () => {
    it('a timeout is retryable and says so', async () => {
      const impatient = createWmsClient(wmsConnection('c', proxy.url, creds), {
        timeoutMs: 300,
        maxConcurrency: 1,
        clock: systemClock,
      });
      // Its token first, however long that takes on a busy machine (a 300 ms timeout applies to it too).
      await until(() => impatient.products.get('OIL-1'), {
        timeoutMs: 20_000,
        message: 'a token for the impatient client',
      });
      // Held until the client gives up: a timeout however slow the machine is.
      proxy.inject({ method: 'GET', path: `${API}/product/OIL-1`, hold: true });
      expect(await error(impatient.products.get('OIL-1'))).toMatchObject({
        kind: 'timeout',
        retryable: true,
        status: 0,
      });
      proxy.release();
    });

    it('a dropped connection is retryable', async () => {
      proxy.inject({ method: 'GET', path: `${API}/product/OIL-1`, drop: true });
      expect(await error(client.products.get('OIL-1'))).toMatchObject({ kind: 'network', retryable: true });
    });

    it('5xx, 409 and 429 are retryable, with the body and Retry-After', async () => {
      const before = client.callTally();
      proxy.inject({ method: 'GET', path: `${API}/product/OIL-1`, status: 503, body: { title: 'Maintenance' } });
      expect(await error(client.products.get('OIL-1'))).toMatchObject({
        status: 503,
        retryable: true,
        body: { title: 'Maintenance' },
      });
      proxy.inject({ method: 'GET', path: `${API}/product/OIL-1`, status: 429, headers: { 'retry-after': '3' } });
      expect(await error(client.products.get('OIL-1'))).toMatchObject({
        status: 429,
        retryable: true,
        retryAfterMs: 3000,
      });
      proxy.inject({ method: 'GET', path: `${API}/product/OIL-1`, status: 409, body: { detail: 'busy' } });
      expect(await error(client.products.get('OIL-1'))).toMatchObject({ status: 409, retryable: true });
      expect((await client.products.get('OIL-1')).externalCode).toBe('OIL-1');
      // The overview's WMS API tile: three calls the WMS did not answer well, none refused, four in all.
      const after = client.callTally();
      expect({
        calls: after.calls - before.calls,
        unavailable: after.unavailable - before.unavailable,
        refused: after.refused - before.refused,
      }).toEqual({ calls: 4, unavailable: 3, refused: 0 });
    });

    it('an answer that does not match the spec is not retryable', async () => {
      proxy.inject({ method: 'GET', path: `${API}/product/OIL-1`, status: 200, body: { description: 'no code' } });
      expect(await error(client.products.get('OIL-1'))).toMatchObject({
        kind: 'invalid-response',
        status: 200,
        retryable: false,
      });
    });

    it("endpoints 18 and 19: one Packing object, as the spec's table has it, is read as an array of one", async () => {
      const one = { id: 7, barcode: 'PK2026000007', productExternalCode: 'OIL-1', bulk: 2 };
      proxy.inject({ method: 'GET', path: `${API}/expedition/getPackingByExternalCode`, status: 200, body: one });
      expect(await client.warehouse.packingByExternalCode({ warehouse: 'MAIN', externalCode: 'SO-1' })).toEqual([one]);
      proxy.inject({
        method: 'GET',
        path: `${API}/expedition/getPackingByDocumentCode`,
        status: 200,
        body: [one, { ...one, id: 8 }],
      });
      expect(
        await client.warehouse.packingByDocumentCode({ warehouse: 'MAIN', documentCode: 'CE2026/1' }),
      ).toHaveLength(2);
      proxy.inject({
        method: 'GET',
        path: `${API}/expedition/getPackingByDocumentCode`,
        status: 200,
        body: 'not a packing',
      });
      expect(
        await error(client.warehouse.packingByDocumentCode({ warehouse: 'MAIN', documentCode: 'CE2026/1' })),
      ).toMatchObject({ kind: 'invalid-response', retryable: false });
    });

    it('never has more calls in flight than its bound, however many are asked at once', async () => {
      const bounded = createWmsClient(wmsConnection('bounded', proxy.url, await wms.tenant('bounded')), {
        timeoutMs: 5000,
        maxConcurrency: 3,
        clock: systemClock,
      });
      await bounded.products.create({ externalCode: 'B-1', description: 'bounded' });
      // An answer held by an earlier test must not count here.
      await until(() => proxy.inFlight === 0, { message: 'proxy idle' });
      proxy.maxInFlight = 0;
      const results = await Promise.all(Array.from({ length: 60 }, () => bounded.products.get('B-1')));
      expect(results).toHaveLength(60);
      expect(proxy.maxInFlight).toBeLessThanOrEqual(3);
      expect(proxy.maxInFlight).toBeGreaterThan(1);
    });
  });
});
