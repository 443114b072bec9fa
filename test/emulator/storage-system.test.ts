import { describe, expect, it } from 'vitest';
import { commonResultSchema } from '../../src/wms/index.js';
import { API, call, control, expectBadRequestObject } from './support.js';
import { createDocument, ok, stock, warehouseTenant } from './warehouse-support.js';

const T = '/tenants/acme';
const DISPATCHED = `${API}/storage-system/dispatched`;
type Env = Awaited<ReturnType<typeof warehouseTenant>>;

async function oauthToken(env: Env): Promise<string> {
  const audience = 'https://wms.example/api';
  const client = await ok<{ client_id: string; client_secret: string }>(env.app, 'POST', `${T}/oauth-clients`, {
    audience,
  });
  const res = await call<{ access_token: string }>(env.app, 'POST', '/oauth/token', {
    json: {
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience,
      grant_type: 'client_credentials',
    },
  });
  return res.body.access_token;
}

/** P1 ×10 and SKU-coded P2 ×4 in stock; CE-1 orders P1 ×6 and P2 ×4, all picked. */
async function picked(env: Env): Promise<string> {
  await call(env.app, 'POST', `${API}/product`, {
    token: env.token,
    json: { externalCode: 'P2', code: 'SKU-P2', description: 'Coded product' },
  });
  await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 10 });
  await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P2', quantity: 4 });
  await createDocument(env.app, env.token, {
    externalCode: 'CE-1',
    documentType: 'CLIENT_EXPEDITION',
    lines: [
      { lineNumber: 1, quantity: 6, productExternalCode: 'P1' },
      { lineNumber: 2, quantity: 4, productExternalCode: 'P2' },
    ],
  });
  const { shippingOrderCode } = await ok<{ shippingOrderCode: string }>(env.app, 'POST', `${T}/shipping-orders`, {
    document: 'CE-1',
  });
  await ok(env.app, 'POST', `${T}/shipping-orders/${shippingOrderCode}/pick`);
  return shippingOrderCode;
}

const line = (orderNumber: string, productCode: string, quantity: number, lineNumber = 1) => ({
  orderNumber,
  lineNumber,
  productCode,
  quantity,
  completedDate: '2025-03-01T11:59:00Z',
  dispatchedDate: '2025-03-01T12:00:00+01:00',
  container: 'TOTE-7',
  user: 'robot-1',
});

describe('endpoint 20 POST /storage-system/dispatched', () => {
  it('applies the lines to the shipping order: the units leave the stock; all of them dispatched closes the order', async () => {
    const env = await warehouseTenant();
    const token = await oauthToken(env);
    const code = await picked(env);
    const first = await call(env.app, 'POST', DISPATCHED, { token, json: [line(code, 'P1', 4)] });
    expect(first.status).toBe(200);
    expect(commonResultSchema.parse(first.body)).toEqual({
      success: true,
      message: '1 line(s) dispatched',
      orderName: code,
    });
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toEqual([
      { bulk: 6, containers: 0, reservedShipping: 2, existence: 6, available: 4, product: 'P1' },
    ]);
    expect((await ok<{ status: string }>(env.app, 'GET', `${T}/shipping-orders/${code}`)).status).toBe('PICKING');

    // productCode is matched on the SKU (here SKU-P2) or the external code
    const rest = await call(env.app, 'POST', DISPATCHED, {
      token,
      json: [line(code, 'P1', 2), line(code, 'SKU-P2', 4, 2)],
    });
    expect(rest.status).toBe(200);
    const order = await ok<{ status: string; document: { status: string }; closingDocuments: unknown[] }>(
      env.app,
      'GET',
      `${T}/shipping-orders/${code}`,
    );
    expect(order).toMatchObject({ status: 'DISPATCHED', document: { status: 'EXECUTED' } });
    expect(order.closingDocuments).toHaveLength(1);
    expect((await stock(env.app, env.token, { products: [{ product: 'P1' }, { product: 'P2' }] })).body).toMatchObject([
      { existence: 4, reservedShipping: 0 },
      { existence: 0, reservedShipping: 0 },
    ]);
    // a partly dispatched order can no longer be cancelled
    expect((await control(env.app, 'POST', `${T}/shipping-orders/${code}/cancel`)).status).toBe(409);
  });

  it('spec rule 4: "Endpoint 20 is authorized by the OAuth2 scheme only": 403 for API client tokens, 401 without a token', async () => {
    const env = await warehouseTenant();
    const code = await picked(env);
    const apiClient = await call(env.app, 'POST', DISPATCHED, { token: env.token, json: [line(code, 'P1', 1)] });
    expect(apiClient.status).toBe(403);
    expect(expectBadRequestObject(apiClient.body, 403).errorKey).toBe('forbidden');
    expect(apiClient.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect((await call(env.app, 'POST', DISPATCHED, { json: [line(code, 'P1', 1)] })).status).toBe(401);
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 10 }]);
  });

  it('spec: 400 "invalid dispatched result": every problem named, nothing applied', async () => {
    const env = await warehouseTenant();
    const token = await oauthToken(env);
    const code = await picked(env);
    const invalid: [unknown, string][] = [
      [[], 'no lines'],
      [[{ productCode: 'P1', quantity: 1 }], '[0].orderNumber is required'],
      [[line(code, 'P1', 0)], '[0].quantity must be above zero'],
      [[line('SO1999-1', 'P1', 1)], 'shipping order "SO1999-1" not found'],
      [[line(code, 'NOPE', 1)], 'product "NOPE" not found'],
      [[line(code, 'P1', 5), line(code, 'P1', 2, 2)], 'is more than shipping order'],
      [[line(code, 'SER', 1)], 'is more than shipping order'],
      [[{ ...line(code, 'P1', 1), dispatchedDate: 'yesterday' }], 'dispatchedDate'],
      [{ orderNumber: code }, 'expected array'],
    ];
    for (const [json, message] of invalid) {
      const res = await call(env.app, 'POST', DISPATCHED, { token, json });
      expect(res.status, message).toBe(400);
      expect(expectBadRequestObject(res.body, 400).title, JSON.stringify(json)).toContain(message);
    }
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([
      { existence: 10, reservedShipping: 6 },
    ]);
    expect(
      (await ok<{ picks: { dispatched: number }[] }>(env.app, 'GET', `${T}/shipping-orders/${code}`)).picks.every(
        (p) => p.dispatched === 0,
      ),
    ).toBe(true);
  });
});
