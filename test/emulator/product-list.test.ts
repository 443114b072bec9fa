import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../src/emulator/products/create.js';
import { findTenant } from '../../src/emulator/tenants/find.js';
import type { Product, ProductInput } from '../../src/wms/index.js';
import { API, call, expectBadRequestObject, issueToken, type Provisioned, provision, setup } from './support.js';

// spec: list operations take `criteria` and `pageable`; ARCHITECTURE.md closes the gap the
// JHipster way: `field.operator=value` pairs AND-combined, `page`/`size`/`sort`, a JSON array,
// X-Total-Count and an RFC 8288 Link header.

const PRODUCTS: ProductInput[] = [
  {
    externalCode: 'P1',
    description: 'Red apple',
    code: 'APL-RED',
    abbreviation: 'RAP',
    withLots: true,
    lots: [{ code: 'L-OLD', active: true, expirationDate: '2025-01-31' }],
    barcodes: [{ code: '111', type: 'GTIN' }],
  },
  {
    externalCode: 'P2',
    description: 'Green apple',
    code: 'APL-GRN',
    withLots: true,
    lots: [{ code: 'L-NEW', active: false, expirationDate: '2026-06-30' }],
    barcodes: [{ code: '222', type: 'CNP' }],
  },
  {
    externalCode: 'P3',
    description: 'Banana',
    code: 'BAN',
    withSerialNumbers: true,
    barcodes: [
      { code: '333', type: 'GTIN' },
      { code: 'X3', type: 'OTHER' },
    ],
  },
  { externalCode: 'P4', description: 'Cherry 50%_off', code: 'CHR', withSecurityDevice: true },
  { externalCode: 'P5', description: 'apple pie', code: 'PIE', abbreviation: 'PIE' },
];

const { app, emulator, clock } = setup();
let token = '';
let client: Provisioned;
let ids: Record<string, number> = {};

beforeAll(async () => {
  client = await provision(app, 'acme');
  token = client.token;
  for (const json of PRODUCTS) expect((await call(app, 'POST', `${API}/product`, { token, json })).status).toBe(200);
  const rows = emulator.state.ctx.db.prepare('SELECT id, external_code FROM products').all() as {
    id: number;
    external_code: string;
  }[];
  ids = Object.fromEntries(rows.map((r) => [r.external_code, r.id]));
});

async function list(query: string) {
  const res = await call<Product[]>(app, 'GET', `${API}/product?${query}`, { token });
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}
const codes = async (query: string) => (await list(`${query}&size=100`)).body.map((p) => p.externalCode).sort();

describe('StringFilter (sku, description, abbreviation)', () => {
  it.each([
    ['sku.equals=BAN', ['P3']],
    ['sku.notEquals=BAN', ['P1', 'P2', 'P4', 'P5']],
    ['sku.in=BAN,CHR', ['P3', 'P4']],
    ['sku.notIn=BAN,CHR', ['P1', 'P2', 'P5']],
    ['description.contains=APPLE', ['P1', 'P2', 'P5']], // JHipster: case-insensitive LIKE
    ['description.doesNotContain=apple', ['P3', 'P4']],
    ['abbreviation.specified=true', ['P1', 'P5']],
    ['abbreviation.specified=false', ['P2', 'P3', 'P4']],
    ['abbreviation.notEquals=RAP', ['P5']], // a NULL never matches notEquals, as in SQL/JPA
    ['sku.in=', []],
    ['sku.notIn=', ['P1', 'P2', 'P3', 'P4', 'P5']],
  ])('%s', async (query, expected) => {
    expect(await codes(query)).toEqual(expected);
  });
});

describe('BooleanFilter (withLots, withSerialNumbers, withSecurityDevice, active)', () => {
  it.each([
    ['withLots.equals=true', ['P1', 'P2']],
    ['withLots.equals=false', ['P3', 'P4', 'P5']],
    ['withLots.notEquals=true', ['P3', 'P4', 'P5']],
    ['withSerialNumbers.in=true', ['P3']],
    ['withSecurityDevice.notIn=true', ['P1', 'P2', 'P3', 'P5']],
    ['withLots.specified=true', ['P1', 'P2', 'P3', 'P4', 'P5']],
    ['withLots.specified=false', []],
    ['active.equals=true', ['P1', 'P2', 'P3', 'P4', 'P5']], // spec: API products are always active
    ['active.equals=false', []],
  ])('%s', async (query, expected) => {
    expect(await codes(query)).toEqual(expected);
  });
});

describe('LongFilter (id), every operator', () => {
  it('equals, notEquals, in, notIn, range operators, specified', async () => {
    const { P1, P2, P3, P4 } = ids as Record<'P1' | 'P2' | 'P3' | 'P4', number>;
    expect(await codes(`id.equals=${P2}`)).toEqual(['P2']);
    expect(await codes(`id.notEquals=${P2}`)).toEqual(['P1', 'P3', 'P4', 'P5']);
    expect(await codes(`id.in=${P1},${P3}`)).toEqual(['P1', 'P3']);
    expect(await codes(`id.notIn=${P1},${P3}`)).toEqual(['P2', 'P4', 'P5']);
    expect(await codes(`id.greaterThan=${P3}`)).toEqual(['P4', 'P5']);
    expect(await codes(`id.greaterThanOrEqual=${P3}`)).toEqual(['P3', 'P4', 'P5']);
    expect(await codes(`id.lessThan=${P2}`)).toEqual(['P1']);
    expect(await codes(`id.lessThanOrEqual=${P2}`)).toEqual(['P1', 'P2']);
    expect(await codes(`id.greaterThan=${P1}&id.lessThan=${P4}`)).toEqual(['P2', 'P3']);
    expect(await codes('id.specified=true')).toHaveLength(5);
  });
});

describe('LocalDateFilter (expirationDate of lots), TypeOfBarcodeFilter, child members', () => {
  it.each([
    ['expirationDate.equals=2025-01-31', ['P1']],
    ['expirationDate.greaterThan=2025-01-31', ['P2']],
    ['expirationDate.greaterThanOrEqual=2025-01-31', ['P1', 'P2']],
    ['expirationDate.lessThan=2026-06-30', ['P1']],
    ['expirationDate.lessThanOrEqual=2026-06-30', ['P1', 'P2']],
    ['expirationDate.in=2026-06-30,2020-01-01', ['P2']],
    ['expirationDate.specified=false', ['P3', 'P4', 'P5']],
    ['typeOfBarcode.equals=GTIN', ['P1', 'P3']],
    ['typeOfBarcode.in=CNP,OTHER', ['P2', 'P3']],
    ['typeOfBarcode.notEquals=GTIN', ['P2', 'P3']], // some barcode of another type
    ['typeOfBarcode.notIn=GTIN,OTHER', ['P2']],
    ['typeOfBarcode.specified=true', ['P1', 'P2', 'P3']],
    ['typeOfBarcode.specified=false', ['P4', 'P5']],
    ['barcodesCode.equals=X3', ['P3']],
    ['lotCode.contains=new', ['P2']],
    ['withLotsActive.equals=true', ['P1']],
  ])('%s', async (query, expected) => {
    expect(await codes(query)).toEqual(expected);
  });

  it('isExpiredGroup follows the injected clock', async () => {
    expect(await codes('isExpiredGroup.equals=true')).toEqual(['P1']); // today is 2025-03-01
    clock.set(new Date('2026-07-01T00:00:00Z'));
    const later = (await issueToken(app, client.clientId, client.clientSecret)).body.access_token;
    const res = await call<Product[]>(app, 'GET', `${API}/product?isExpiredGroup.equals=true`, { token: later });
    expect(res.body.map((p) => p.externalCode)).toEqual(['P1', 'P2']);
    clock.set(new Date('2025-03-01T12:00:00Z'));
  });
});

describe('members over several columns, members the emulator does not hold, AND', () => {
  it.each([
    ['skuOrDescription.contains=pie', ['P5']],
    ['skuOrDescription.equals=BAN', ['P3']],
    ['skuOrDescription.doesNotContain=apl', ['P3', 'P4', 'P5']],
    ['search.contains=RAP', ['P1']],
    ['description.contains=50%25_', ['P4']], // JHipster passes % and _ to LIKE as wildcards
    ['warehouseId.specified=false', ['P1', 'P2', 'P3', 'P4', 'P5']],
    ['warehouseId.equals=1', []],
    ['labelId.notIn=', ['P1', 'P2', 'P3', 'P4', 'P5']],
    ['withStock.equals=false', ['P1', 'P2', 'P3', 'P4', 'P5']],
    ['description.contains=apple&withLots.equals=true&expirationDate.greaterThan=2025-12-31', ['P2']],
  ])('%s', async (query, expected) => {
    expect(await codes(query)).toEqual(expected);
  });
});

describe('pageable and pagination headers', () => {
  it('default page 0, size 20, sorted by id; X-Total-Count; JHipster Link header', async () => {
    const res = await list('size=2&page=1&description.contains=a');
    expect(res.body.map((p) => p.externalCode)).toEqual(['P3', 'P5']);
    expect(res.headers.get('x-total-count')).toBe('4');
    const url = 'http://localhost/api/external/v1/product?description.contains=a';
    expect(res.headers.get('link')).toBe(
      [
        `<${url}&page=0&size=2>; rel="prev"`,
        `<${url}&page=1&size=2>; rel="last"`,
        `<${url}&page=0&size=2>; rel="first"`,
      ].join(','),
    );
    const first = await list('size=2&description.contains=a');
    expect(first.headers.get('link')).toMatch(
      /^<[^>]+page=1&size=2>; rel="next",<[^>]+>; rel="last",<[^>]+page=0&size=2>; rel="first"$/,
    );
    const all = await list('');
    expect(all.body).toHaveLength(5);
    expect(all.headers.get('link')).toBe(
      '<http://localhost/api/external/v1/product?page=0&size=20>; rel="last",<http://localhost/api/external/v1/product?page=0&size=20>; rel="first"',
    );
  });

  it('sort=property,direction, repeatable; commas in Link URIs are percent-encoded', async () => {
    // text sorts by code point, so 'apple pie' (lowercase) comes after 'Red apple' descending
    expect((await list('sort=description,desc')).body.map((p) => p.externalCode)).toEqual([
      'P5',
      'P1',
      'P2',
      'P4',
      'P3',
    ]);
    expect((await list('sort=withLots,desc&sort=sku,asc')).body.map((p) => p.externalCode)).toEqual([
      'P2',
      'P1',
      'P3',
      'P4',
      'P5',
    ]);
    expect((await list('sort=sku')).body.map((p) => p.code)).toEqual(['APL-GRN', 'APL-RED', 'BAN', 'CHR', 'PIE']);
    expect((await list('sort=sku,desc')).headers.get('link')).toContain('sort=sku%2Cdesc&page=0&size=20');
  });

  it('a page past the end is an empty array with the total', async () => {
    const res = await list('page=7&size=2');
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('rel="prev"');
  });

  it('400 bad-request object for unknown members, operators a filter lacks, bad values, bad pageable, unknown sort', async () => {
    for (const query of [
      'colour.equals=red',
      'sku=BAN',
      'sku.greaterThan=B',
      'id.equals=abc',
      'expirationDate.equals=2025-13-01',
      'typeOfBarcode.equals=EAN',
      'page=-1',
      'size=0',
      'sort=colour,asc',
      'sort=sku,sideways',
    ]) {
      const res = await call(app, 'GET', `${API}/product?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(expectBadRequestObject(res.body, 400).title, query).toMatch(/criteria|sort/i);
    }
  });
});

describe('contains: trigram index and scan agree with a plain substring search (property)', () => {
  it('X-Total-Count of skuOrDescription.contains equals the number of products whose sku or description contains the value, ignoring case', async () => {
    const big = setup();
    const owner = await provision(big.app, 'bulk');
    const stranger = await provision(big.app, 'other'); // another tenant sees none of them
    const ctx = { ...big.emulator.state.ctx, tenant: findTenant(big.emulator.state.ctx, 'bulk')! };
    const words = ['alpha', 'Beta', 'gamma', 'delta', 'ALPHA beta'];
    const catalogue: { sku: string; description: string }[] = [];
    // 1,500 products: values with 3+ characters that match at most 1,000 of them go through the
    // trigram index; 'item' (every product) and 1-2 character values go through the scan.
    ctx.db.transaction(() => {
      for (let i = 0; i < 1500; i++) {
        const item = { sku: `S${i}-${words[i % 3]}`, description: `${words[i % 5]} item ${i}` };
        catalogue.push(item);
        createProduct(ctx, { externalCode: `E${i}`, code: item.sku, description: item.description });
      }
    })();
    const value = fc.oneof(
      fc.constantFrom(
        'alpha',
        'ALPHA',
        'beta',
        'ta',
        'item',
        'ITEM ',
        'item 1',
        'item 14',
        'a b',
        'S1-',
        '-gam',
        'pha be',
        'zzz',
        'i',
        '149',
      ),
      fc.stringMatching(/^[A-Za-z0-9 -]{1,6}$/),
    );
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        const expected = catalogue.filter(
          (p) => p.sku.toLowerCase().includes(v.toLowerCase()) || p.description.toLowerCase().includes(v.toLowerCase()),
        ).length;
        const q = `skuOrDescription.contains=${encodeURIComponent(v)}&size=1`;
        const res = await call(big.app, 'GET', `${API}/product?${q}`, { token: owner.token });
        expect(res.headers.get('x-total-count'), v).toBe(String(expected));
        const other = await call(big.app, 'GET', `${API}/product?${q}`, { token: stranger.token });
        expect(other.headers.get('x-total-count')).toBe('0');
      }),
      { numRuns: 60 },
    );
  });
});
