import { describe, expect, it } from 'vitest';
import { type Product, productSchema } from '../../src/wms/index.js';
import { API, call, control, expectBadRequestObject, provision, setup } from './support.js';

const PRODUCT = `${API}/product`;
const widget = { externalCode: 'W-1', description: 'Widget', handlingUnit: 'UN', weight: 1.5 };

async function tenant(settings?: Record<string, boolean>) {
  const { app, emulator } = setup();
  const p = await provision(app, 'acme', settings);
  return { app, emulator, token: p.token };
}

describe('endpoint 2 POST /product', () => {
  it('creates and answers the product as stored, active, SKU = externalCode when code is omitted', async () => {
    const { app, token } = await tenant();
    const res = await call<Product>(app, 'POST', PRODUCT, {
      token,
      json: {
        ...widget,
        barcodes: [{ code: '5601', type: 'GTIN' }],
        lots: [{ code: 'L1', active: true, expirationDate: '2030-01-31' }],
      },
    });
    expect(res.status).toBe(200);
    expect(productSchema.parse(res.body)).toEqual({
      externalCode: 'W-1',
      active: true,
      description: 'Widget',
      code: 'W-1', // spec: "When omitted, externalCode is used as the SKU."
      withLots: false,
      withSerialNumbers: false,
      withExpirationDate: false,
      withSecurityDevice: false,
      handlingUnit: 'UN',
      weight: 1.5,
      barcodes: [{ code: '5601', type: 'GTIN' }],
      lots: [{ code: 'L1', active: true, expirationDate: '2030-01-31' }],
    });
    expect((await call(app, 'GET', `${PRODUCT}/W-1`, { token })).body).toEqual(res.body);
  });

  it('stores every product as active, whatever was sent (spec: "a sent value is ignored")', async () => {
    const { app, token } = await tenant();
    const res = await call<Product>(app, 'POST', PRODUCT, { token, json: { ...widget, active: false } });
    expect(res.body.active).toBe(true);
  });

  it("400 'Product SKU already exists' for a code used by another product", async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: { ...widget, code: 'SKU-1' } });
    const res = await call(app, 'POST', PRODUCT, {
      token,
      json: { externalCode: 'W-2', description: 'Other', code: 'SKU-1' },
    });
    expect(res.status).toBe(400);
    // spec: "a code already used by another product is rejected with 400 and the message 'Product SKU already exists'"
    expect(expectBadRequestObject(res.body, 400)).toMatchObject({
      message: 'Product SKU already exists',
      title: 'Product SKU already exists',
      entityName: 'product',
    });
  });

  it("400 when the defaulted SKU (the externalCode) is another product's code", async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: { ...widget, code: 'W-2' } });
    const res = await call(app, 'POST', PRODUCT, { token, json: { externalCode: 'W-2', description: 'Other' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'Product SKU already exists' });
  });

  it('400 for an externalCode that exists (update goes through endpoint 3)', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: widget });
    const res = await call(app, 'POST', PRODUCT, { token, json: { ...widget, code: 'OTHER' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorKey: 'productexists' });
  });

  it('forces withLots and withExpirationDate when the tenant has API_WITH_LOT / API_WITH_EXPIRATION_DATE', async () => {
    // spec: "withLots ... Forced to true, whatever was sent, when the tenant application setting API_WITH_LOT is enabled."
    const { app, token } = await tenant({ API_WITH_LOT: true, API_WITH_EXPIRATION_DATE: true });
    const res = await call<Product>(app, 'POST', PRODUCT, {
      token,
      json: { ...widget, withLots: false, withExpirationDate: false },
    });
    expect(res.body).toMatchObject({ withLots: true, withExpirationDate: true });
  });

  it('keeps withLots and withExpirationDate as sent when the settings are off', async () => {
    const { app, token } = await tenant();
    const res = await call<Product>(app, 'POST', PRODUCT, {
      token,
      json: { ...widget, withLots: true, withExpirationDate: false },
    });
    expect(res.body).toMatchObject({ withLots: true, withExpirationDate: false });
  });

  it('400 with the bad-request object naming the field: missing description, bad enums, bad dates, wrong types, repeated lot', async () => {
    const { app, token } = await tenant();
    const cases: [unknown, string][] = [
      [{ externalCode: 'X' }, 'description'],
      [{ ...widget, handlingUnit: 'BOX' }, 'handlingUnit'],
      [{ ...widget, barcodes: [{ code: '1', type: 'EAN13' }] }, 'barcodes[0].type'],
      [{ ...widget, barcodes: [{ code: '1' }] }, 'barcodes[0].type'],
      [{ ...widget, lots: [{ code: 'L1' }] }, 'lots[0].active'],
      [{ ...widget, lots: [{ code: 'L1', active: true, expirationDate: '2030-02-30' }] }, 'lots[0].expirationDate'],
      [{ ...widget, weight: '1.5' }, 'weight'],
      [{ ...widget, daysToNotifyExpirationDate: 2.5 }, 'daysToNotifyExpirationDate'],
      [
        {
          ...widget,
          lots: [
            { code: 'L1', active: true },
            { code: 'L1', active: false },
          ],
        },
        'lot code "L1" appears twice',
      ],
      [[widget], '(body)'],
    ];
    for (const [json, field] of cases) {
      const res = await call(app, 'POST', PRODUCT, { token, json });
      expect(res.status, field).toBe(400);
      expect(expectBadRequestObject(res.body, 400).title, field).toContain(field);
    }
    expect((await call(app, 'GET', '/api/external/v1/product-all-external-codes', { token })).body).toBe('');
  });
});

describe('endpoint 3 PUT /product', () => {
  it('replaces the scalars and barcodes, upserts lots, keeps withSerialNumbers and withSecurityDevice', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, {
      token,
      json: {
        ...widget,
        abbreviation: 'WDG',
        withSerialNumbers: true,
        withSecurityDevice: false,
        barcodes: [{ code: 'A', type: 'GTIN' }],
        lots: [{ code: 'L1', active: true }],
      },
    });
    const res = await call<Product>(app, 'PUT', PRODUCT, {
      token,
      json: {
        externalCode: 'W-1',
        description: 'Widget v2',
        code: 'W-SKU',
        withSerialNumbers: false, // spec: "Applied on creation only; on update the stored value is kept"
        withSecurityDevice: true,
        barcodes: [{ code: 'B', type: 'OTHER' }],
        lots: [{ code: 'L2', active: false }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      externalCode: 'W-1',
      active: true,
      description: 'Widget v2',
      code: 'W-SKU',
      withLots: false,
      withSerialNumbers: true,
      withExpirationDate: false,
      withSecurityDevice: false,
      barcodes: [{ code: 'B', type: 'OTHER' }],
      lots: [
        { code: 'L1', active: true },
        { code: 'L2', active: false },
      ],
    });
  });

  it('leaves barcodes alone when the update does not carry them; forces flags from settings changed since creation', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: { ...widget, barcodes: [{ code: 'A', type: 'GTIN' }] } });
    await control(app, 'PUT', '/tenants/acme/settings', { API_WITH_LOT: true });
    const res = await call<Product>(app, 'PUT', PRODUCT, {
      token,
      json: { externalCode: 'W-1', description: 'Widget', withLots: false },
    });
    expect(res.body).toMatchObject({
      barcodes: [{ code: 'A', type: 'GTIN' }],
      withLots: true,
      withExpirationDate: false,
    });
  });

  it("400 'Product SKU already exists' when the new code belongs to another product; the product's own SKU is fine", async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: { ...widget, code: 'S1' } });
    await call(app, 'POST', PRODUCT, { token, json: { externalCode: 'W-2', description: 'Two', code: 'S2' } });
    const clash = await call(app, 'PUT', PRODUCT, {
      token,
      json: { externalCode: 'W-2', description: 'Two', code: 'S1' },
    });
    expect(clash.status).toBe(400);
    expect(clash.body).toMatchObject({ message: 'Product SKU already exists' });
    expect(
      (await call(app, 'PUT', PRODUCT, { token, json: { externalCode: 'W-2', description: 'Two!', code: 'S2' } }))
        .status,
    ).toBe(200);
  });

  it('keeps the stored SKU when the update has no code (spec: "When omitted, externalCode is used as the SKU" is the creation rule)', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: { ...widget, code: 'W-SKU' } });
    const res = await call<Product>(app, 'PUT', PRODUCT, {
      token,
      json: { externalCode: 'W-1', description: 'Widget v2' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: 'Widget v2', code: 'W-SKU' });
    expect(
      (await call(app, 'PUT', PRODUCT, { token, json: { externalCode: 'W-1', description: 'Widget v3', code: '' } }))
        .body,
    ).toMatchObject({ code: 'W-SKU' });
    // The SKU is still its own: another product cannot take it, and the external code is free.
    expect(
      (await call(app, 'POST', PRODUCT, { token, json: { externalCode: 'W-2', description: 'Two', code: 'W-SKU' } }))
        .status,
    ).toBe(400);
    expect(
      (await call(app, 'POST', PRODUCT, { token, json: { externalCode: 'W-3', description: 'Three', code: 'W-1' } }))
        .status,
    ).toBe(200);
  });

  it('400 idnotfound for an unknown externalCode (the spec lists 400 for endpoint 3)', async () => {
    const { app, token } = await tenant();
    const res = await call(app, 'PUT', PRODUCT, { token, json: widget });
    expect(res.status).toBe(400);
    expect(expectBadRequestObject(res.body, 400).errorKey).toBe('idnotfound');
  });
});

describe('endpoint 4 GET /product/{externalCode}', () => {
  it('finds codes with reserved URL characters', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: { ...widget, externalCode: 'A/B C?%' } });
    const res = await call<Product>(app, 'GET', `${PRODUCT}/${encodeURIComponent('A/B C?%')}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.externalCode).toBe('A/B C?%');
  });

  it('404 bad-request object for an unknown product', async () => {
    const { app, token } = await tenant();
    const res = await call(app, 'GET', `${PRODUCT}/NOPE`, { token });
    expect(res.status).toBe(404);
    expect(expectBadRequestObject(res.body, 404)).toMatchObject({ entityName: 'product', errorKey: 'notfound' });
  });
});

describe('endpoint 5 POST /product/{externalCode}/update-observations', () => {
  it('takes a JSON string and answers true', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: widget });
    const res = await call(app, 'POST', `${PRODUCT}/W-1/update-observations`, { token, json: 'Fragile, "keep dry"' });
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    expect((await call<Product>(app, 'GET', `${PRODUCT}/W-1`, { token })).body.observations).toBe(
      'Fragile, "keep dry"',
    );
  });

  it('400 for a body that is not a JSON string (object, raw text), 404 for an unknown product', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', PRODUCT, { token, json: widget });
    expect(
      (await call(app, 'POST', `${PRODUCT}/W-1/update-observations`, { token, json: { observations: 'x' } })).status,
    ).toBe(400);
    const raw = await call(app, 'POST', `${PRODUCT}/W-1/update-observations`, {
      token,
      body: 'Fragile',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expectBadRequestObject(raw.body, 400);
    const plain = await call(app, 'POST', `${PRODUCT}/W-1/update-observations`, {
      token,
      body: 'Fragile',
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(400);
    const missing = await call(app, 'POST', `${PRODUCT}/NOPE/update-observations`, { token, json: 'x' });
    expect(missing.status).toBe(404);
    expectBadRequestObject(missing.body, 404);
  });
});

describe('endpoint 6 GET /product-all-external-codes', () => {
  it('answers one JSON string, the codes comma-separated in creation order', async () => {
    const { app, token } = await tenant();
    for (const code of ['C', 'A', 'B'])
      await call(app, 'POST', PRODUCT, { token, json: { externalCode: code, description: code } });
    const res = await call(app, 'GET', `${API}/product-all-external-codes`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toBe('C,A,B');
  });
});

describe('products: security and tenant isolation', () => {
  it('every product endpoint answers 401 without a token', async () => {
    const { app } = await tenant();
    const requests: [string, string, unknown?][] = [
      ['GET', PRODUCT],
      ['POST', PRODUCT, widget],
      ['PUT', PRODUCT, widget],
      ['GET', `${PRODUCT}/W-1`],
      ['POST', `${PRODUCT}/W-1/update-observations`, 'x'],
      ['GET', `${API}/product-all-external-codes`],
    ];
    for (const [method, path, json] of requests) {
      const res = await call(app, method, path, json === undefined ? {} : { json });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it("no request reaches another tenant's products; SKUs are unique per tenant only", async () => {
    const { app } = setup();
    const a = await provision(app, 'tenant-a');
    const b = await provision(app, 'tenant-b');
    await call(app, 'POST', PRODUCT, { token: a.token, json: { ...widget, code: 'SKU-1' } });
    expect((await call(app, 'GET', `${PRODUCT}/W-1`, { token: b.token })).status).toBe(404);
    expect((await call(app, 'GET', PRODUCT, { token: b.token })).body).toEqual([]);
    expect(
      (await call(app, 'GET', `${PRODUCT}?sku.equals=SKU-1`, { token: b.token })).headers.get('x-total-count'),
    ).toBe('0');
    expect((await call(app, 'PUT', PRODUCT, { token: b.token, json: widget })).status).toBe(400);
    expect((await call(app, 'POST', `${PRODUCT}/W-1/update-observations`, { token: b.token, json: 'x' })).status).toBe(
      404,
    );
    expect((await call(app, 'GET', `${API}/product-all-external-codes`, { token: b.token })).body).toBe('');
    // same externalCode and SKU in tenant B: a different product
    const own = await call<Product>(app, 'POST', PRODUCT, {
      token: b.token,
      json: { ...widget, description: 'B widget', code: 'SKU-1' },
    });
    expect(own.status).toBe(200);
    expect((await call<Product>(app, 'GET', `${PRODUCT}/W-1`, { token: a.token })).body.description).toBe('Widget');
  });
});
