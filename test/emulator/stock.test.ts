import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stockListSchema } from '../../src/wms/index.js';
import { API, call, control, expectBadRequestObject, provision } from './support.js';
import { createDocument, ok, stock, warehouseTenant } from './warehouse-support.js';

const T = '/tenants/acme';
const regularize = (app: Parameters<typeof ok>[0], body: Record<string, unknown>) =>
  ok(app, 'POST', `${T}/stock/regularizations`, body);

describe('endpoint 7 POST /product/stock', () => {
  it('spec: "existence = bulk + containers", "available = existence - reservedShipping"', async () => {
    const env = await warehouseTenant();
    await regularize(env.app, { productExternalCode: 'P1', quantity: 10 });
    await regularize(env.app, { productExternalCode: 'P1', quantity: 4, inContainers: true });
    await createDocument(env.app, env.token, {
      externalCode: 'CE-1',
      documentType: 'CLIENT_EXPEDITION',
      lines: [{ lineNumber: 1, quantity: 3, productExternalCode: 'P1' }],
    });
    const order = await ok<{ shippingOrderCode: string }>(env.app, 'POST', `${T}/shipping-orders`, {
      document: 'CE-1',
    });
    await ok(env.app, 'POST', `${T}/shipping-orders/${order.shippingOrderCode}/pick`);
    const res = await stock(env.app, env.token, { product: 'P1' });
    expect(res.status).toBe(200);
    expect(stockListSchema.parse(res.body)).toEqual([
      { bulk: 10, containers: 4, reservedShipping: 3, existence: 14, available: 11, product: 'P1' },
    ]);
  });

  it('spec rule 3: "when products is present it overrides product and lot"', async () => {
    const env = await warehouseTenant();
    await regularize(env.app, { productExternalCode: 'P1', quantity: 7 });
    await regularize(env.app, { productExternalCode: 'LOT', lotCode: 'L1', quantity: 5 });
    const res = await stock(env.app, env.token, {
      product: 'P1',
      lot: 'NOPE',
      products: [{ product: 'LOT', lot: 'L1' }, { product: 'P1' }],
    });
    expect(res.body).toEqual([
      { bulk: 5, containers: 0, reservedShipping: 0, existence: 5, available: 5, product: 'LOT', lot: 'L1' },
      { bulk: 7, containers: 0, reservedShipping: 0, existence: 7, available: 7, product: 'P1' },
    ]);
    expect((await stock(env.app, env.token, { product: 'P1', products: [] })).body).toEqual([]);
  });

  it('groupedByLot: one row per lot with its expirationDate; a lot filter narrows to that lot', async () => {
    const env = await warehouseTenant();
    await regularize(env.app, { productExternalCode: 'LOT', lotCode: 'L1', quantity: 5 });
    await regularize(env.app, {
      productExternalCode: 'LOT',
      lotCode: 'L2',
      quantity: 3,
      expirationDate: '2027-02-28',
      location: 'A1',
    });
    await regularize(env.app, { productExternalCode: 'LOT', lotCode: 'L2', quantity: 1, location: 'A2' });
    expect((await stock(env.app, env.token, { product: 'LOT', groupedByLot: true })).body).toEqual([
      {
        bulk: 5,
        containers: 0,
        reservedShipping: 0,
        existence: 5,
        available: 5,
        product: 'LOT',
        lot: 'L1',
        expirationDate: '2026-01-31',
      },
      {
        bulk: 4,
        containers: 0,
        reservedShipping: 0,
        existence: 4,
        available: 4,
        product: 'LOT',
        lot: 'L2',
        expirationDate: '2027-02-28',
      },
    ]);
    expect((await stock(env.app, env.token, { product: 'LOT' })).body).toEqual([
      { bulk: 9, containers: 0, reservedShipping: 0, existence: 9, available: 9, product: 'LOT' },
    ]);
    expect((await stock(env.app, env.token, { product: 'LOT', lot: 'L2', groupedByLot: true })).body).toEqual([
      {
        bulk: 4,
        containers: 0,
        reservedShipping: 0,
        existence: 4,
        available: 4,
        product: 'LOT',
        lot: 'L2',
        expirationDate: '2027-02-28',
      },
    ]);
    // a product without stock still answers one row, of zeros
    expect((await stock(env.app, env.token, { product: 'P1', groupedByLot: true })).body).toEqual([
      { bulk: 0, containers: 0, reservedShipping: 0, existence: 0, available: 0, product: 'P1' },
    ]);
  });

  it('spec: "Location and shippingProcess are exclusive: when location is filled, location is used"', async () => {
    const env = await warehouseTenant();
    await ok(env.app, 'POST', `${T}/warehouses`, { code: 'W2', externalCode: 'WH-2', shippingProcess: 'EXPRESS' });
    await regularize(env.app, { productExternalCode: 'P1', quantity: 2, warehouse: 'W2', location: 'A1' });
    await regularize(env.app, { productExternalCode: 'P1', quantity: 5, location: 'B1' });
    const byProcess = await stock(env.app, env.token, { product: 'P1', shippingProcess: 'EXPRESS' });
    expect(byProcess.body).toEqual([
      { bulk: 2, containers: 0, reservedShipping: 0, existence: 2, available: 2, node: 'EXPRESS', product: 'P1' },
    ]);
    const both = await stock(env.app, env.token, { product: 'P1', shippingProcess: 'EXPRESS', location: 'B1' });
    expect(both.body).toEqual([
      { bulk: 5, containers: 0, reservedShipping: 0, existence: 5, available: 5, node: 'B1', product: 'P1' },
    ]);
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 7 }]);
  });

  it('without product or products: every product with stock, in creation order', async () => {
    const env = await warehouseTenant();
    await regularize(env.app, { productExternalCode: 'SER', quantity: 2 });
    await regularize(env.app, { productExternalCode: 'P1', quantity: 1 });
    const res = await stock(env.app, env.token, {});
    expect((res.body as { product: string }[]).map((r) => r.product)).toEqual(['P1', 'SER']);
  });

  it('404 "product not found" naming every unknown product, also for a product created in the WMS itself', async () => {
    const env = await warehouseTenant();
    await ok(env.app, 'POST', `${T}/wms-products`, { code: 'LOCAL', description: 'No API external code' });
    const res = await stock(env.app, env.token, {
      products: [{ product: 'P1' }, { product: 'NOPE' }, { product: 'LOCAL' }],
    });
    expect(res.status).toBe(404);
    expect(expectBadRequestObject(res.body, 404)).toMatchObject({
      entityName: 'product',
      title: 'Product not found: NOPE, LOCAL',
    });
  });

  it("400 for a malformed request; 401 without a token; a tenant never sees another tenant's products", async () => {
    const env = await warehouseTenant();
    for (const json of [{ products: [{ lot: 'L1' }] }, { groupedByLot: 'yes' }, { product: 7 }, []]) {
      const res = await stock(env.app, env.token, json as Record<string, unknown>);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expectBadRequestObject(res.body, 400);
    }
    expect((await call(env.app, 'POST', `${API}/product/stock`, { json: { product: 'P1' } })).status).toBe(401);
    const other = await provision(env.app, 'other');
    expect((await stock(env.app, other.token, { product: 'P1' })).status).toBe(404);
  });
});

describe('POST /_emulator/tenants/{tenant}/stock/regularizations', () => {
  it('refuses a zero quantity, an unknown product, tenant or warehouse, and the wrong lot tracking', async () => {
    const env = await warehouseTenant();
    const cases: [string, Record<string, unknown>, number, string][] = [
      [T, { productExternalCode: 'P1', quantity: 0 }, 400, 'invalid_request'],
      [T, { productExternalCode: 'NOPE', quantity: 1 }, 404, 'product_not_found'],
      ['/tenants/nope', { productExternalCode: 'P1', quantity: 1 }, 404, 'tenant_not_found'],
      [T, { productExternalCode: 'P1', quantity: 1, warehouse: 'W9' }, 400, 'warehouse_not_found'],
      [T, { productExternalCode: 'LOT', quantity: 1 }, 400, 'lot_required'],
      [T, { productExternalCode: 'P1', quantity: 1, lotCode: 'X' }, 400, 'lot_not_tracked'],
      [T, { productExternalCode: 'LOT', quantity: 1, lotCode: 'NEW' }, 400, 'expiration_required'],
      [T, { productExternalCode: 'P1', quantity: 1, extra: true }, 400, 'invalid_request'],
    ];
    for (const [tenant, body, status, error] of cases) {
      const res = await control(env.app, 'POST', `${tenant}/stock/regularizations`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toMatchObject({ error });
    }
  });

  it('a removal takes only available units: 409 insufficient_stock leaves the stock as it was', async () => {
    const env = await warehouseTenant();
    await regularize(env.app, { productExternalCode: 'P1', quantity: 3 });
    const res = await control(env.app, 'POST', `${T}/stock/regularizations`, {
      productExternalCode: 'P1',
      quantity: -4,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'insufficient_stock', message: 'Product "P1": 4 needed, 3 available' });
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 3 }]);
  });

  it('existence follows any sequence of additions and removals, per location; a removal beyond what is there is refused (property)', async () => {
    const env = await warehouseTenant();
    let run = 0;
    const step = fc.tuple(
      fc.integer({ min: -20, max: 20 }).filter((q) => q !== 0),
      fc.constantFrom('S1', 'S2', undefined),
      fc.boolean(),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const product = `PROP-${run++}`;
        await call(env.app, 'POST', `${API}/product`, {
          token: env.token,
          json: { externalCode: product, description: product },
        });
        const model = new Map<string, number>();
        const total = () => [...model.values()].reduce((a, b) => a + b, 0);
        for (const [quantity, location, inContainers] of steps) {
          const res = await control(env.app, 'POST', `${T}/stock/regularizations`, {
            productExternalCode: product,
            quantity,
            location,
            inContainers,
          });
          // a removal without location takes from any location; with one, only from there
          const there = location === undefined ? total() : (model.get(location) ?? 0);
          if (quantity < 0 && -quantity > there) {
            expect(res.status).toBe(409);
            continue;
          }
          expect(res.status).toBe(200);
          if (quantity > 0 || location !== undefined)
            model.set(location ?? 'STOCK', (model.get(location ?? 'STOCK') ?? 0) + quantity);
          else {
            let left = -quantity;
            for (const [at, q] of model) {
              const take = Math.min(q, left);
              model.set(at, q - take);
              left -= take;
            }
          }
        }
        const [row] = (await stock(env.app, env.token, { product })).body as {
          existence: number;
          available: number;
          bulk: number;
          containers: number;
        }[];
        expect(row!.existence).toBe(total());
        expect(row!.available).toBe(total());
        expect(row!.bulk + row!.containers).toBe(total());
        for (const [location, quantity] of model) {
          expect((await stock(env.app, env.token, { product, location })).body).toMatchObject([
            { existence: quantity, node: location },
          ]);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('product criteria that depend on stock', () => {
  it('withStock / isWithStockGroup: existence above zero; warehouseId: stock rows in that warehouse', async () => {
    const env = await warehouseTenant();
    await ok(env.app, 'POST', `${T}/warehouses`, { code: 'W2' });
    await regularize(env.app, { productExternalCode: 'P1', quantity: 2 });
    await regularize(env.app, { productExternalCode: 'SER', quantity: 1, warehouse: 'W2' });
    await regularize(env.app, { productExternalCode: 'SER', quantity: -1, warehouse: 'W2' });
    const codes = async (query: string) =>
      (
        (await call<{ externalCode: string }[]>(env.app, 'GET', `${API}/product?${query}`, { token: env.token }))
          .body ?? []
      ).map((p) => p.externalCode);
    expect(await codes('withStock.equals=true')).toEqual(['P1']);
    expect(await codes('isWithStockGroup.equals=false')).toEqual(['LOT', 'SER']);
    const w2 = (
      env.emulator.state.ctx.db.prepare("SELECT id FROM warehouses WHERE code = 'W2'").get() as { id: number }
    ).id;
    expect(await codes(`warehouseId.equals=${w2}`)).toEqual(['SER']);
  });
});
