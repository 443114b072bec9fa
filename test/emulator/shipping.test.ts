import { describe, expect, it } from 'vitest';
import { type Packing, packingListSchema } from '../../src/wms/index.js';
import { API, call, control, expectBadRequestObject, provision } from './support.js';
import { createDocument, ok, stock, warehouseTenant } from './warehouse-support.js';

const T = '/tenants/acme';
type Env = Awaited<ReturnType<typeof warehouseTenant>>;
interface OrderView {
  id: number;
  shippingOrderCode: string;
  status: string;
  document: { status: string };
  picks: {
    productExternalCode: string;
    lotCode: string | null;
    quantity: number;
    dispatched: number;
    location: string;
  }[];
  packings: Packing[];
  webhookIds?: number[];
}

/** P1 ×10 at STOCK; LOT: L1 ×3 (expires 2026-01-31) and L2 ×4 (expires 2025-12-31); document CE-1 for P1 ×6 and LOT ×5. */
async function stocked(env: Env) {
  const reg = (body: Record<string, unknown>) => ok(env.app, 'POST', `${T}/stock/regularizations`, body);
  await reg({ productExternalCode: 'P1', quantity: 10 });
  await reg({ productExternalCode: 'LOT', lotCode: 'L1', quantity: 3 });
  await reg({ productExternalCode: 'LOT', lotCode: 'L2', quantity: 4, expirationDate: '2025-12-31' });
  await createDocument(env.app, env.token, {
    externalCode: 'CE-1',
    documentType: 'CLIENT_EXPEDITION',
    lines: [
      { lineNumber: 1, quantity: 6, productExternalCode: 'P1' },
      { lineNumber: 2, quantity: 5, productExternalCode: 'LOT' },
    ],
  });
  return (await ok<OrderView>(env.app, 'POST', `${T}/shipping-orders`, { document: 'CE-1' })).shippingOrderCode;
}

const action = (env: Env, code: string, verb: string, body?: unknown) =>
  ok<OrderView>(env.app, 'POST', `${T}/shipping-orders/${code}/${verb}`, body);
const packing = (env: Env, query: string, token = env.token) =>
  call<Packing[]>(env.app, 'GET', `${API}/expedition/${query}`, { token });

/** GS1 mod 10, written here independently of the emulator: weights 3,1,3… from the right, total a multiple of 10. */
const gs1Valid = (code: string) =>
  /^\d{18}$/.test(code) &&
  [...code].reverse().reduce((sum, d, i) => sum + Number(d) * (i % 2 === 1 ? 3 : 1), 0) % 10 === 0;

describe('shipping orders: NEW → PICKING → PACKED → DISPATCHED', () => {
  it('picking reserves stock (first expiring lot first), dispatching removes it and releases the reservation', async () => {
    const env = await warehouseTenant();
    const code = await stocked(env);
    expect((await ok<OrderView>(env.app, 'GET', `${T}/shipping-orders/${code}`)).document.status).toBe('IN_PROGRESS');
    const picked = await action(env, code, 'pick');
    expect(picked.status).toBe('PICKING');
    expect(picked.picks.map((p) => [p.productExternalCode, p.lotCode, p.quantity])).toEqual([
      ['P1', null, 6],
      ['LOT', 'L2', 4],
      ['LOT', 'L1', 1],
    ]);
    expect(
      (await stock(env.app, env.token, { products: [{ product: 'P1' }, { product: 'LOT' }], groupedByLot: true })).body,
    ).toEqual([
      { bulk: 10, containers: 0, reservedShipping: 6, existence: 10, available: 4, product: 'P1' },
      {
        bulk: 3,
        containers: 0,
        reservedShipping: 1,
        existence: 3,
        available: 2,
        product: 'LOT',
        lot: 'L1',
        expirationDate: '2026-01-31',
      },
      {
        bulk: 4,
        containers: 0,
        reservedShipping: 4,
        existence: 4,
        available: 0,
        product: 'LOT',
        lot: 'L2',
        expirationDate: '2025-12-31',
      },
    ]);
    const packed = await action(env, code, 'pack');
    expect(packed.status).toBe('PACKED');
    const dispatched = await action(env, code, 'dispatch');
    expect(dispatched).toMatchObject({ status: 'DISPATCHED', document: { status: 'EXECUTED' } });
    expect(
      (await stock(env.app, env.token, { products: [{ product: 'P1' }, { product: 'LOT' }], groupedByLot: true })).body,
    ).toEqual([
      { bulk: 4, containers: 0, reservedShipping: 0, existence: 4, available: 4, product: 'P1' },
      {
        bulk: 2,
        containers: 0,
        reservedShipping: 0,
        existence: 2,
        available: 2,
        product: 'LOT',
        lot: 'L1',
        expirationDate: '2026-01-31',
      },
    ]);
    expect((await control(env.app, 'POST', `${T}/shipping-orders/${code}/pick`)).body).toMatchObject({
      error: 'shipping_order_closed',
    });
  });

  it('picks named lines (lot, location, serial numbers); refuses what cannot be picked and reserves nothing then', async () => {
    const env = await warehouseTenant();
    const code = await stocked(env);
    const refused: [Record<string, unknown>, number, string][] = [
      [
        {
          lines: [
            { productExternalCode: 'P1', quantity: 2 },
            { productExternalCode: 'LOT', quantity: 8 },
          ],
        },
        409,
        'insufficient_stock',
      ],
      [{ lines: [{ productExternalCode: 'SER', quantity: 1, serialNumbers: ['X'] }] }, 400, 'not_ordered'],
      [{ lines: [{ productExternalCode: 'P1', quantity: 1, lotCode: 'L1' }] }, 400, 'lot_not_tracked'],
      [{ lines: [{ productExternalCode: 'P1', quantity: 1, location: 'ELSEWHERE' }] }, 409, 'insufficient_stock'],
      [{ lines: [] }, 400, 'invalid_request'],
    ];
    for (const [body, status, error] of refused) {
      const res = await control(env.app, 'POST', `${T}/shipping-orders/${code}/pick`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toMatchObject({ error });
    }
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ reservedShipping: 0 }]);
    const picked = await action(env, code, 'pick', {
      lines: [{ productExternalCode: 'LOT', quantity: 2, lotCode: 'L1', location: 'STOCK' }],
    });
    expect(picked.picks).toEqual([
      { productExternalCode: 'LOT', lotCode: 'L1', location: 'STOCK', quantity: 2, dispatched: 0, serialNumbers: null },
    ]);
    // what is left to pick: P1 ×6, and LOT ×3 (5 ordered without lot, 2 picked)
    const rest = await action(env, code, 'pick');
    expect(rest.picks.slice(1).map((p) => [p.productExternalCode, p.lotCode, p.quantity])).toEqual([
      ['P1', null, 6],
      ['LOT', 'L2', 3],
    ]);
    expect((await control(env.app, 'POST', `${T}/shipping-orders/${code}/pick`)).body).toMatchObject({
      error: 'nothing_to_pick',
    });
  });

  it('packs into nested packings with SSCC, weights, dimensions and volume; refuses over-packing and unknown parents', async () => {
    const env = await warehouseTenant();
    const code = await stocked(env);
    expect((await control(env.app, 'POST', `${T}/shipping-orders/${code}/pack`)).body).toMatchObject({
      error: 'shipping_order_not_picked',
    });
    await action(env, code, 'pick');
    const refused: [Record<string, unknown>, string][] = [
      [{ packings: [{ lines: [{ productExternalCode: 'P1', quantity: 7 }] }] }, 'over_packed'],
      [{ packings: [{ parent: 'nope' }] }, 'unknown_parent'],
      [{ packings: [{ parent: 99999 }] }, 'unknown_parent'],
      [{ packings: [{ sscc: '123456789012345678' }] }, 'invalid_sscc'],
      [{ packings: [{ grossWeight: -1 }] }, 'invalid_request'],
    ];
    for (const [body, error] of refused)
      expect((await control(env.app, 'POST', `${T}/shipping-orders/${code}/pack`, body)).body, error).toMatchObject({
        error,
      });
    const packed = await action(env, code, 'pack', {
      packings: [
        { ref: 'pallet', grossWeight: 25.5, containerTypeCode: 'EUR', height: 120, width: 80, depth: 100 },
        {
          ref: 'box',
          parent: 'pallet',
          barcode: 'BOX-1',
          grossWeight: 6.2,
          netWeight: 6,
          lines: [{ productExternalCode: 'P1', quantity: 6, inContainers: true }],
        },
        { parent: 'pallet', lines: [{ productExternalCode: 'LOT', quantity: 5 }] },
      ],
    });
    const [pallet, box, lotL2, lotL1] = packingListSchema.parse(packed.packings);
    expect(pallet).toMatchObject({
      series: 'PK',
      year: 2025,
      grossWeight: 25.5,
      volume: 0.96,
      containerTypeCode: 'EUR',
    });
    expect(pallet).not.toHaveProperty('productExternalCode');
    expect(box).toMatchObject({
      barcode: 'BOX-1',
      parent: pallet!.id,
      grossWeight: 6.2,
      netWeight: 6,
      productExternalCode: 'P1',
      bulk: 0,
      containers: 6,
    });
    expect(lotL2).toMatchObject({ parent: pallet!.id, productExternalCode: 'LOT', lotCode: 'L2', bulk: 4 });
    expect(lotL1).toMatchObject({ id: lotL2!.id, lotCode: 'L1', bulk: 1 });
    for (const p of [pallet, box, lotL2]) expect(gs1Valid(p!.sscc!), p!.sscc!).toBe(true);
    expect((await control(env.app, 'POST', `${T}/shipping-orders/${code}/pack`)).body).toMatchObject({
      error: 'nothing_to_pack',
    });
  });

  it('cancel releases the reservations and puts the document back to CREATED; open/dispatch refusals', async () => {
    const env = await warehouseTenant();
    const code = await stocked(env);
    expect((await control(env.app, 'POST', `${T}/shipping-orders/${code}/dispatch`)).body).toMatchObject({
      error: 'nothing_picked',
    });
    expect((await control(env.app, 'POST', `${T}/shipping-orders`, { document: 'CE-1' })).body).toMatchObject({
      error: 'shipping_order_exists',
    });
    await action(env, code, 'pick');
    const cancelled = await action(env, code, 'cancel');
    expect(cancelled).toMatchObject({ status: 'CANCELLED', document: { status: 'CREATED' } });
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([
      { reservedShipping: 0, existence: 10 },
    ]);
    expect((await control(env.app, 'POST', `${T}/shipping-orders/${code}/cancel`)).body).toMatchObject({
      error: 'shipping_order_closed',
    });
    await createDocument(env.app, env.token, { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' });
    const refused: [unknown, number, string][] = [
      [{ document: 'PO-1' }, 400, 'not_outbound'],
      [{ document: 'NOPE' }, 404, 'document_not_found'],
      [{ document: 'CE-1', warehouse: 'W9' }, 400, 'warehouse_not_found'],
      [{}, 400, 'invalid_request'],
    ];
    for (const [body, status, error] of refused) {
      const res = await control(env.app, 'POST', `${T}/shipping-orders`, body);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ error });
    }
    expect((await control(env.app, 'GET', `${T}/shipping-orders/SO1999-1`)).status).toBe(404);
  });

  it('document criteria pickingsId finds the document of a shipping order', async () => {
    const env = await warehouseTenant();
    const { id } = await ok<OrderView>(env.app, 'GET', `${T}/shipping-orders/${await stocked(env)}`);
    const res = await call<{ externalCode: string }[]>(env.app, 'GET', `${API}/document?pickingsId.equals=${id}`, {
      token: env.token,
    });
    expect(res.body.map((d) => d.externalCode)).toEqual(['CE-1']);
  });
});

describe('endpoints 18 and 19 GET /expedition/getPackingBy…', () => {
  it('answer the packings by the document external code (18) and by the WMS document code (19)', async () => {
    const env = await warehouseTenant();
    const code = await stocked(env);
    await action(env, code, 'pick');
    const packed = await action(env, code, 'pack', {
      packings: [
        {
          grossWeight: 9,
          lines: [
            { productExternalCode: 'P1', quantity: 6 },
            { productExternalCode: 'LOT', quantity: 5 },
          ],
        },
      ],
    });
    const byExternal = await packing(env, 'getPackingByExternalCode?warehouse=MAIN&externalCode=CE-1');
    expect(byExternal.status).toBe(200);
    expect(packingListSchema.parse(byExternal.body)).toEqual(packed.packings);
    expect(byExternal.body.map((p) => [p.productExternalCode, p.lotCode, p.bulk])).toEqual([
      ['P1', undefined, 6],
      ['LOT', 'L2', 4],
      ['LOT', 'L1', 1],
    ]);
    const documentCode = (await ok<{ document: { code: string } }>(env.app, 'GET', `${T}/shipping-orders/${code}`))
      .document.code;
    expect(
      (await packing(env, `getPackingByDocumentCode?warehouse=MAIN&documentCode=${encodeURIComponent(documentCode)}`))
        .body,
    ).toEqual(byExternal.body);
    await action(env, code, 'dispatch');
    expect((await packing(env, 'getPackingByExternalCode?warehouse=MAIN&externalCode=CE-1')).body).toEqual(
      byExternal.body,
    );
  });

  it('name the warehouse by its code or by its external code, the one stock webhooks carry', async () => {
    const env = await warehouseTenant();
    await ok(env.app, 'POST', `${T}/warehouses`, { code: 'W2', externalCode: 'EXT-W2' });
    await ok(env.app, 'POST', `${T}/stock/regularizations`, {
      productExternalCode: 'P1',
      quantity: 5,
      warehouse: 'W2',
    });
    await createDocument(env.app, env.token, {
      externalCode: 'CE-W2',
      documentType: 'CLIENT_EXPEDITION',
      lines: [{ lineNumber: 1, quantity: 2, productExternalCode: 'P1' }],
    });
    const code = (await ok<OrderView>(env.app, 'POST', `${T}/shipping-orders`, { document: 'CE-W2', warehouse: 'W2' }))
      .shippingOrderCode;
    await action(env, code, 'pick');
    const packed = await action(env, code, 'pack');
    const byCode = await packing(env, 'getPackingByExternalCode?warehouse=W2&externalCode=CE-W2');
    const byExternal = await packing(env, 'getPackingByExternalCode?warehouse=EXT-W2&externalCode=CE-W2');
    expect(byCode.status).toBe(200);
    expect(byExternal.status).toBe(200);
    expect(byExternal.body).toEqual(packed.packings);
    const documentCode = (await ok<{ document: { code: string } }>(env.app, 'GET', `${T}/shipping-orders/${code}`))
      .document.code;
    expect(
      (await packing(env, `getPackingByDocumentCode?warehouse=EXT-W2&documentCode=${encodeURIComponent(documentCode)}`))
        .body,
    ).toEqual(packed.packings);
    expect((await packing(env, 'getPackingByExternalCode?warehouse=EXT-NONE&externalCode=CE-W2')).status).toBe(404);
  });

  it('spec: 400 "shipping order has invalid status" before packing and once cancelled', async () => {
    const env = await warehouseTenant();
    const code = await stocked(env);
    const query = 'getPackingByExternalCode?warehouse=MAIN&externalCode=CE-1';
    for (const step of ['NEW', 'pick', 'cancel']) {
      if (step !== 'NEW') await action(env, code, step);
      const res = await packing(env, query);
      expect(res.status, step).toBe(400);
      expect(expectBadRequestObject(res.body, 400)).toMatchObject({
        entityName: 'shippingOrder',
        errorKey: 'invalidstatus',
      });
    }
  });

  it('spec: 404 "warehouse, packing or shipping order not found"; 400 without the required query; 401 without a token', async () => {
    const env = await warehouseTenant();
    const code = await stocked(env);
    await ok(env.app, 'POST', `${T}/warehouses`, { code: 'W2' });
    await action(env, code, 'pick');
    await action(env, code, 'dispatch'); // dispatched without packing
    const notFound: [string, string][] = [
      ['getPackingByExternalCode?warehouse=W9&externalCode=CE-1', 'warehouse'],
      ['getPackingByExternalCode?warehouse=MAIN&externalCode=NOPE', 'shippingOrder'],
      ['getPackingByExternalCode?warehouse=W2&externalCode=CE-1', 'shippingOrder'],
      ['getPackingByDocumentCode?warehouse=MAIN&documentCode=CE1999%2F1', 'shippingOrder'],
      ['getPackingByExternalCode?warehouse=MAIN&externalCode=CE-1', 'packing'],
    ];
    for (const [query, entityName] of notFound) {
      const res = await packing(env, query);
      expect(res.status, query).toBe(404);
      expect(expectBadRequestObject(res.body, 404).entityName, query).toBe(entityName);
    }
    for (const query of ['getPackingByExternalCode?externalCode=CE-1', 'getPackingByDocumentCode?warehouse=MAIN']) {
      expect((await packing(env, query)).status, query).toBe(400);
    }
    expect(
      (await call(env.app, 'GET', `${API}/expedition/getPackingByExternalCode?warehouse=MAIN&externalCode=CE-1`))
        .status,
    ).toBe(401);
    const other = await provision(env.app, 'other');
    expect((await packing(env, 'getPackingByExternalCode?warehouse=MAIN&externalCode=CE-1', other.token)).status).toBe(
      404,
    );
  });
});
