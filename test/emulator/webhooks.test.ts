import { afterEach, describe, expect, it } from 'vitest';
import {
  type CloseReceptionPayload,
  type CloseShippingOrderPayload,
  closeReceptionPayloadSchema,
  closeShippingOrderPayloadSchema,
  stockRegularizationPayloadSchema,
} from '../../src/wms/index.js';
import { basic, type Receiver, startReceiver } from './receiver.js';
import { API, call } from './support.js';
import { createDocument, ok, warehouseTenant } from './warehouse-support.js';

const T = '/tenants/acme';
type Env = Awaited<ReturnType<typeof warehouseTenant>>;
interface Closing {
  closingDocumentCode: string;
  documentExternalCode: string;
  integration: { status: string };
}

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

/** Every destination configured on one receiver, each on its own path, with Basic credentials. */
async function configured(env: Env) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  await ok(env.app, 'PUT', `${T}/webhooks`, {
    receptionCloseUrl: `${receiver.url}/hooks/reception-close`,
    clientReturnCloseUrl: `${receiver.url}/hooks/client-return-close`,
    shippingOrderCloseUrl: `${receiver.url}/hooks/shipping-order-close`,
    supplierReturnCloseUrl: `${receiver.url}/hooks/supplier-return-close`,
    stockRegularizationUrl: `${receiver.url}/hooks/stock`,
    username: 'wms',
    password: 's3cret:with colon',
    company: 'ACME Lda',
  });
  return receiver;
}

async function receiveAndClose(
  env: Env,
  externalCode: string,
  lines: Record<string, unknown>[],
  observations?: string,
) {
  const { receptionCode } = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, {
    documents: [externalCode],
  });
  for (const line of lines) await ok(env.app, 'POST', `${T}/receptions/${receptionCode}/lines`, line);
  return ok<{ closingDocuments: Closing[] }>(
    env.app,
    'POST',
    `${T}/receptions/${receptionCode}/close`,
    observations ? { observations } : undefined,
  );
}

async function pickAndDispatch(env: Env, externalCode: string) {
  const { shippingOrderCode } = await ok<{ shippingOrderCode: string }>(env.app, 'POST', `${T}/shipping-orders`, {
    document: externalCode,
  });
  await ok(env.app, 'POST', `${T}/shipping-orders/${shippingOrderCode}/pick`);
  return ok<{ closingDocuments: Closing[] }>(env.app, 'POST', `${T}/shipping-orders/${shippingOrderCode}/dispatch`);
}

describe('webhook routing (spec: Events, destination by document type)', () => {
  it('PURCHASE_ORDER and WAREHOUSE_TRANSFER_IN → reception close URL; CLIENT_RETURN → client return URL; CLIENT_EXPEDITION → shipping order URL; SUPPLIER_RETURN → supplier return URL; "Other … types are not sent"', async () => {
    const env = await warehouseTenant();
    const receiver = await configured(env);
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 20 });
    await env.emulator.state.webhooks.settled('acme');
    receiver.received.splice(0);
    const line = [{ lineNumber: 1, quantity: 1, productExternalCode: 'P1' }];
    const inbound = {
      'PO-1': 'PURCHASE_ORDER',
      'WTI-1': 'WAREHOUSE_TRANSFER_IN',
      'CR-1': 'CLIENT_RETURN',
      'PR-1': 'PRODUCTION_RETURN',
      'FD-1': 'FACTORY_DELIVERY',
    };
    const outbound = {
      'CE-1': 'CLIENT_EXPEDITION',
      'SR-1': 'SUPPLIER_RETURN',
      'WTO-1': 'WAREHOUSE_TRANSFER_OUT',
      'FDR-1': 'FACTORY_DELIVER',
    };
    const closings: Record<string, Closing> = {};
    for (const [code, documentType] of Object.entries(inbound)) {
      await createDocument(env.app, env.token, { externalCode: code, documentType, lines: line });
      closings[code] = (await receiveAndClose(env, code, [{ productExternalCode: 'P1', quantity: 1 }]))
        .closingDocuments[0]!;
    }
    for (const [code, documentType] of Object.entries(outbound)) {
      await createDocument(env.app, env.token, { externalCode: code, documentType, lines: line });
      closings[code] = (await pickAndDispatch(env, code)).closingDocuments[0]!;
    }
    await env.emulator.state.webhooks.settled('acme');
    expect(
      receiver.received.map((r) => [r.path, (r.body as { documentExternalCode: string }).documentExternalCode]),
    ).toEqual([
      ['/hooks/reception-close', 'PO-1'],
      ['/hooks/reception-close', 'WTI-1'],
      ['/hooks/client-return-close', 'CR-1'],
      ['/hooks/shipping-order-close', 'CE-1'],
      ['/hooks/supplier-return-close', 'SR-1'],
    ]);
    for (const code of ['PR-1', 'FD-1', 'WTO-1', 'FDR-1'])
      expect(closings[code]!.integration.status, code).toBe('not_sent');
    for (const request of receiver.received) {
      // spec: "HTTP POST requests (Content-Type application/json)"; "Basic Auth credentials in the Authorization header"
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers.authorization).toBe(basic('wms', 's3cret:with colon'));
      const schema =
        request.path.includes('reception') || request.path.includes('client-return')
          ? closeReceptionPayloadSchema
          : closeShippingOrderPayloadSchema;
      expect(schema.safeParse(request.body).success, request.path).toBe(true);
      const closing = closings[(request.body as { documentExternalCode: string }).documentExternalCode]!;
      expect((request.body as { closingDocumentCode: string }).closingDocumentCode).toBe(closing.closingDocumentCode);
    }
  });
});

describe('webhook payloads (spec: the three payload tables)', () => {
  it('close reception: closing document code, document numbers, origin, date, notes, lines per product/lot with expiry and serials', async () => {
    const env = await warehouseTenant();
    const receiver = await configured(env);
    await createDocument(env.app, env.token, {
      externalCode: 'PO-1',
      documentNumber: 'PO 2025/0042',
      documentType: 'PURCHASE_ORDER',
      originExternalCode: 'SUP-1',
      lines: [
        { lineNumber: 1, quantity: 10, productExternalCode: 'LOT', lotCode: 'L1' },
        { lineNumber: 2, quantity: 2, productExternalCode: 'SER' },
      ],
    });
    const closed = await receiveAndClose(
      env,
      'PO-1',
      [
        { productExternalCode: 'LOT', quantity: 6, lotCode: 'L1' },
        { productExternalCode: 'LOT', quantity: 4, lotCode: 'L1', location: 'A2' },
        { productExternalCode: 'LOT', quantity: 3, lotCode: 'L7', expirationDate: '2027-07-31' },
        { productExternalCode: 'SER', quantity: 2, serialNumbers: ['SN-1', 'SN-2'] },
        { productExternalCode: 'GHOST', quantity: 5 },
      ],
      'two boxes wet',
    );
    await env.emulator.state.webhooks.settled('acme');
    expect(receiver.received).toHaveLength(1);
    const payload: CloseReceptionPayload = closeReceptionPayloadSchema.parse(receiver.received[0]!.body);
    expect(payload).toEqual({
      closingDocumentCode: closed.closingDocuments[0]!.closingDocumentCode,
      documentNumber: ['PO 2025/0042'],
      documentExternalCode: 'PO-1',
      documentType: 'PURCHASE_ORDER',
      company: 'ACME Lda',
      originCode: 'SUP-1',
      receptionDate: '2025-03-01',
      observations: 'two boxes wet',
      lines: [
        { externalCode: 'LOT', quantity: 10, lotCode: 'L1', expirationDate: '2026-01-31', serialNumbers: null },
        { externalCode: 'LOT', quantity: 3, lotCode: 'L7', expirationDate: '2027-07-31', serialNumbers: null },
        { externalCode: 'SER', quantity: 2, lotCode: null, expirationDate: null, serialNumbers: ['SN-1', 'SN-2'] },
      ],
    });
  });

  it('a reception of two documents sends one close per document, each with its own closing code and lines', async () => {
    const env = await warehouseTenant();
    const receiver = await configured(env);
    await createDocument(env.app, env.token, {
      externalCode: 'PO-1',
      documentType: 'PURCHASE_ORDER',
      lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'P1' }],
    });
    await createDocument(env.app, env.token, {
      externalCode: 'PO-2',
      documentType: 'PURCHASE_ORDER',
      lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'SER' }],
    });
    const { receptionCode } = await ok<{ receptionCode: string }>(env.app, 'POST', `${T}/receptions`, {
      documents: ['PO-1', 'PO-2'],
    });
    await ok(env.app, 'POST', `${T}/receptions/${receptionCode}/lines`, {
      productExternalCode: 'SER',
      quantity: 1,
      serialNumbers: ['S'],
    });
    await ok(env.app, 'POST', `${T}/receptions/${receptionCode}/lines`, {
      productExternalCode: 'P1',
      quantity: 2,
      documentExternalCode: 'PO-2',
    });
    await ok(env.app, 'POST', `${T}/receptions/${receptionCode}/close`);
    await env.emulator.state.webhooks.settled('acme');
    const bodies = receiver.received.map((r) => r.body as CloseReceptionPayload);
    expect(
      bodies.map((b) => [
        b.documentExternalCode,
        b.documentNumber,
        b.lines.map((l) => `${l.externalCode}×${l.quantity}`),
      ]),
    ).toEqual([
      ['PO-1', ['N-PO-1', 'N-PO-2'], []],
      ['PO-2', ['N-PO-1', 'N-PO-2'], ['SER×1', 'P1×2']],
    ]);
    expect(new Set(bodies.map((b) => b.closingDocumentCode)).size).toBe(2);
  });

  it('close shipping order: destination, delivery point, carrier, webhook place and the packing list', async () => {
    const env = await warehouseTenant();
    const receiver = await configured(env);
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'LOT', lotCode: 'L1', quantity: 5 });
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 5 });
    await createDocument(env.app, env.token, {
      externalCode: 'CE-1',
      documentNumber: 'ORD-77',
      documentType: 'CLIENT_EXPEDITION',
      destinationExternalCode: 'CLI-9',
      deliveryPointExternalCode: 'DP-9',
      carrier: 'Fast Freight',
      deliveryPlace: 'Dock 3',
      lines: [
        { lineNumber: 1, quantity: 3, productExternalCode: 'LOT' },
        { lineNumber: 2, quantity: 2, productExternalCode: 'P1' },
      ],
    });
    const { shippingOrderCode: code } = await ok<{ shippingOrderCode: string }>(
      env.app,
      'POST',
      `${T}/shipping-orders`,
      { document: 'CE-1' },
    );
    await ok(env.app, 'POST', `${T}/shipping-orders/${code}/pick`);
    await ok(env.app, 'POST', `${T}/shipping-orders/${code}/pack`, {
      packings: [
        {
          barcode: 'BOX-A',
          grossWeight: 4.5,
          lines: [
            { productExternalCode: 'LOT', quantity: 3 },
            { productExternalCode: 'P1', quantity: 1 },
          ],
        },
        { barcode: 'BOX-B', grossWeight: 1.25, lines: [{ productExternalCode: 'P1', quantity: 1 }] },
      ],
    });
    const dispatched = await ok<{ closingDocuments: Closing[] }>(
      env.app,
      'POST',
      `${T}/shipping-orders/${code}/dispatch`,
      { observations: 'left 14:00' },
    );
    await env.emulator.state.webhooks.settled('acme');
    const request = receiver.received.find((r) => r.path === '/hooks/shipping-order-close')!;
    const payload: CloseShippingOrderPayload = closeShippingOrderPayloadSchema.parse(request.body);
    expect(payload).toEqual({
      closingDocumentCode: dispatched.closingDocuments[0]!.closingDocumentCode,
      documentNumber: ['ORD-77'],
      documentExternalCode: 'CE-1',
      documentType: 'CLIENT_EXPEDITION',
      company: 'ACME Lda',
      observations: 'left 14:00',
      lines: [
        { externalCode: 'LOT', quantity: 3, lotCode: 'L1', expirationDate: '2026-01-31', serialNumbers: null },
        { externalCode: 'P1', quantity: 2, lotCode: null, expirationDate: null, serialNumbers: null },
      ],
      destinationCode: 'CLI-9',
      deliveryPointExternalCode: 'DP-9',
      carrier: 'Fast Freight',
      deliveryPlace: 'Dock 3',
      packingList: [
        {
          packingCode: 'BOX-A',
          weight: 4.5,
          lines: [
            { externalCode: 'LOT', quantity: 3 },
            { externalCode: 'P1', quantity: 1 },
          ],
        },
        { packingCode: 'BOX-B', weight: 1.25, lines: [{ externalCode: 'P1', quantity: 1 }] },
      ],
    });
  });

  it('stock regularization: one request per product and lot; lotCode null when not lot-tracked; warehouse the external code or null; none for products without an API external code', async () => {
    const env = await warehouseTenant();
    const receiver = await configured(env);
    await ok(env.app, 'POST', `${T}/warehouses`, { code: 'W2', externalCode: 'WH-NORTH' });
    await ok(env.app, 'POST', `${T}/wms-products`, { code: 'LOCAL-1', description: 'Made in the WMS' });
    env.clock.set(new Date('2025-03-01T12:30:00Z')); // within the token's hour
    await ok(env.app, 'POST', `${T}/stock/regularizations`, {
      productExternalCode: 'LOT',
      lotCode: 'L1',
      quantity: 5,
      warehouse: 'W2',
    });
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: 2.5 });
    await ok(env.app, 'POST', `${T}/stock/regularizations`, { productExternalCode: 'P1', quantity: -1 });
    const local = await ok<{ webhook: boolean; webhookIds: number[] }>(env.app, 'POST', `${T}/stock/regularizations`, {
      productExternalCode: 'LOCAL-1',
      quantity: 9,
    });
    expect(local).toMatchObject({ webhook: false, webhookIds: [] });
    await env.emulator.state.webhooks.settled('acme');
    expect(
      receiver.received.every(
        (r) => r.path === '/hooks/stock' && r.headers.authorization === basic('wms', 's3cret:with colon'),
      ),
    ).toBe(true);
    expect(receiver.received.map((r) => stockRegularizationPayloadSchema.parse(r.body))).toEqual([
      {
        productExternalCode: 'LOT',
        lotCode: 'L1',
        quantity: 5,
        movementTime: '2025-03-01T12:30:00.000Z',
        warehouse: 'WH-NORTH',
      },
      {
        productExternalCode: 'P1',
        lotCode: null,
        quantity: 2.5,
        movementTime: '2025-03-01T12:30:00.000Z',
        warehouse: null,
      },
      {
        productExternalCode: 'P1',
        lotCode: null,
        quantity: -1,
        movementTime: '2025-03-01T12:30:00.000Z',
        warehouse: null,
      },
    ]);
    // the payload carries null explicitly (not a missing member)
    expect(receiver.received[1]!.text).toContain('"lotCode":null');
    expect(receiver.received[1]!.text).toContain('"warehouse":null');
    // a WMS-only product is invisible to the API
    expect((await call(env.app, 'GET', `${API}/product/LOCAL-1`, { token: env.token })).status).toBe(404);
  });
});
