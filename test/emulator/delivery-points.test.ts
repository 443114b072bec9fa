import { beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryPoint, deliveryPointSchema } from '../../src/wms/index.js';
import { API, call, expectBadRequestObject, provision, setup } from './support.js';

const DP = `${API}/delivery-point`;
const shop = {
  externalCode: 'C-1',
  active: true,
  name: 'Corner Shop',
  alias: 'Corner',
  deliveryPoint: 'DP-01',
  gln: '5600000000017',
  nif: 'PT500000000',
  email: 'shop@example.com',
  phone: '+351 210 000 000',
  url: 'https://shop.example.com',
  address: 'Rua Augusta 1',
  postalCode: '1100-048',
  city: 'Lisboa',
  country: 'PT',
  types: ['CLIENT'],
  daysToReserveExpirationDate: 30,
  allowExpiredLots: false,
};

async function tenant(name = 'acme') {
  const env = setup();
  const p = await provision(env.app, name);
  return { ...env, token: p.token };
}

describe('endpoint 14 POST /delivery-point', () => {
  it('200 with the delivery point as stored', async () => {
    const { app, token } = await tenant();
    const res = await call<DeliveryPoint>(app, 'POST', DP, { token, json: shop });
    expect(res.status).toBe(200); // the spec lists 200, not 201, for endpoint 14
    expect(deliveryPointSchema.parse(res.body)).toEqual(shop);
  });

  it('400 for an externalCode that exists, missing required members, unknown or repeated types', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', DP, { token, json: shop });
    expect(expectBadRequestObject((await call(app, 'POST', DP, { token, json: shop })).body, 400).errorKey).toBe(
      'deliverypointexists',
    );
    const cases: [unknown, string][] = [
      [{ externalCode: 'X', name: 'n' }, 'active'],
      [{ externalCode: 'X', active: true }, 'name'],
      [{ ...shop, externalCode: 'X', types: ['CARRIER'] }, 'types[0]'],
      [{ ...shop, externalCode: 'X', types: ['CLIENT', 'CLIENT'] }, 'types'],
      [{ ...shop, externalCode: 'X', daysToReserveExpirationDate: '30' }, 'daysToReserveExpirationDate'],
    ];
    for (const [json, field] of cases) {
      const res = await call(app, 'POST', DP, { token, json });
      expect(res.status, field).toBe(400);
      expect(expectBadRequestObject(res.body, 400).title, field).toContain(field);
    }
  });
});

describe('endpoint 15 PUT /delivery-point and endpoint 16 GET /delivery-point/{externalCode}', () => {
  it('replaces every member; types stay when the update leaves them out', async () => {
    const { app, token } = await tenant();
    await call(app, 'POST', DP, { token, json: shop });
    const res = await call<DeliveryPoint>(app, 'PUT', DP, {
      token,
      json: { externalCode: 'C-1', active: false, name: 'Renamed' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ externalCode: 'C-1', active: false, name: 'Renamed', types: ['CLIENT'] });
    const both = await call<DeliveryPoint>(app, 'PUT', DP, {
      token,
      json: { externalCode: 'C-1', active: true, name: 'Both', types: ['CLIENT', 'SUPPLIER'] },
    });
    expect(both.body.types).toEqual(['SUPPLIER', 'CLIENT']);
    expect((await call(app, 'GET', `${DP}/C-1`, { token })).body).toEqual(both.body);
  });

  it('400 idnotfound for an unknown externalCode on update; 404 on get', async () => {
    const { app, token } = await tenant();
    expect(expectBadRequestObject((await call(app, 'PUT', DP, { token, json: shop })).body, 400).errorKey).toBe(
      'idnotfound',
    );
    const res = await call(app, 'GET', `${DP}/NOPE`, { token });
    expect(res.status).toBe(404);
    expect(expectBadRequestObject(res.body, 404).entityName).toBe('deliveryPoint');
  });
});

describe('endpoint 13 GET /delivery-point with criteria', () => {
  const { app } = setup();
  let token = '';
  beforeAll(async () => {
    token = (await provision(app, 'acme')).token;
    const points = [
      shop,
      {
        externalCode: 'S-1',
        active: true,
        name: 'Acme Supplies',
        types: ['SUPPLIER'],
        city: 'Porto',
        daysToReserveExpirationDate: 10,
      },
      {
        externalCode: 'B-1',
        active: false,
        name: 'Both Ways',
        alias: 'BW',
        types: ['SUPPLIER', 'CLIENT'],
        allowExpiredLots: true,
      },
      { externalCode: 'N-1', active: true, name: 'No Types' },
    ];
    for (const json of points) expect((await call(app, 'POST', DP, { token, json })).status).toBe(200);
  });
  const codes = async (query: string) => {
    const res = await call<DeliveryPoint[]>(app, 'GET', `${DP}?${query}`, { token });
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.map((d) => d.externalCode).sort();
  };

  it.each([
    // EntityTypeFilter
    ['types.equals=CLIENT', ['B-1', 'C-1']],
    ['types.notEquals=CLIENT', ['B-1', 'S-1']],
    ['types.in=SUPPLIER', ['B-1', 'S-1']],
    ['types.notIn=SUPPLIER', ['B-1', 'C-1']], // JHipster joins: some type outside the list
    ['types.specified=false', ['N-1']],
    ['isClientGroup.equals=true', ['B-1', 'C-1']],
    ['isSupplierGroup.equals=false', ['C-1', 'N-1']],
    // DeliveryPointCategoryFilter: the API holds no categories
    ['categories.specified=false', ['B-1', 'C-1', 'N-1', 'S-1']],
    ['categories.equals.description=Cold', []],
    // StringFilter, BooleanFilter, IntegerFilter
    ['aliasOrName.contains=bw', ['B-1']],
    ['aliasOrName.contains=corner', ['C-1']],
    ['city.in=Porto,Lisboa', ['C-1', 'S-1']],
    ['active.equals=false', ['B-1']],
    ['allowExpiredLots.specified=true', ['B-1', 'C-1']],
    ['daysToReserveExpirationDate.greaterThan=10', ['C-1']],
    ['daysToReserveExpirationDate.lessThanOrEqual=10', ['S-1']],
    ['nmvsActive.equals=false', ['B-1', 'C-1', 'N-1', 'S-1']],
    ['search.contains=supp', ['S-1']],
    ['active.equals=true&types.equals=SUPPLIER', ['S-1']],
  ])('%s', async (query, expected) => expect(await codes(query)).toEqual(expected));

  it('pagination headers and 400 for unknown members', async () => {
    const res = await call(app, 'GET', `${DP}?size=3&sort=name,asc`, { token });
    expect(res.headers.get('x-total-count')).toBe('4');
    expect((res.body as DeliveryPoint[]).map((d) => d.name)).toEqual(['Acme Supplies', 'Both Ways', 'Corner Shop']);
    const bad = await call(app, 'GET', `${DP}?sku.equals=x`, { token });
    expect(bad.status).toBe(400);
    expectBadRequestObject(bad.body, 400);
  });
});

describe('delivery points: security and tenant isolation', () => {
  it('401 without a token on every endpoint', async () => {
    const { app } = await tenant();
    for (const [method, path, json] of [
      ['GET', DP],
      ['POST', DP, shop],
      ['PUT', DP, shop],
      ['GET', `${DP}/C-1`],
    ] as [string, string, unknown?][]) {
      expect((await call(app, method, path, json === undefined ? {} : { json })).status, `${method} ${path}`).toBe(401);
    }
  });

  it('another tenant neither sees nor changes a delivery point, and may use the same externalCode', async () => {
    const a = await tenant('tenant-a');
    const b = await provision(a.app, 'tenant-b');
    await call(a.app, 'POST', DP, { token: a.token, json: shop });
    expect((await call(a.app, 'GET', `${DP}/C-1`, { token: b.token })).status).toBe(404);
    expect((await call(a.app, 'GET', DP, { token: b.token })).body).toEqual([]);
    expect((await call(a.app, 'PUT', DP, { token: b.token, json: { ...shop, name: 'hijack' } })).status).toBe(400);
    expect((await call(a.app, 'POST', DP, { token: b.token, json: { ...shop, name: 'B shop' } })).status).toBe(200);
    expect((await call<DeliveryPoint>(a.app, 'GET', `${DP}/C-1`, { token: a.token })).body.name).toBe('Corner Shop');
  });
});
