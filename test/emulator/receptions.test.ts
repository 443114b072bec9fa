import { afterEach, describe, expect, it } from 'vitest';
import { receptionDifferencesSchema } from '../../src/wms/index.js';
import { gate, type Receiver, startReceiver } from './receiver.js';
import { API, call, control, expectBadRequestObject, provision } from './support.js';
import { createDocument, ok, stock, warehouseTenant } from './warehouse-support.js';

const T = '/tenants/acme';
type Env = Awaited<ReturnType<typeof warehouseTenant>>;
interface ReceptionView {
  id: number;
  receptionCode: string;
  status: string;
  documents: { status: string }[];
  closingDocuments: { closingDocumentCode: string; integration: { status: string; message: string | null } }[];
  webhookIds?: number[];
}

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

async function purchaseOrder(env: Env, externalCode = 'PO-1', lines?: unknown[]) {
  await createDocument(env.app, env.token, {
    externalCode,
    documentType: 'PURCHASE_ORDER',
    originExternalCode: 'SUP-1',
    lines: lines ?? [
      { lineNumber: 1, quantity: 10, productExternalCode: 'P1' },
      { lineNumber: 2, quantity: 5, productExternalCode: 'LOT', lotCode: 'L1' },
    ],
  });
}

const open = (env: Env, documents: string[], extra: Record<string, unknown> = {}) =>
  ok<ReceptionView>(env.app, 'POST', `${T}/receptions`, { documents, ...extra });
const receive = (env: Env, code: string, line: Record<string, unknown>) =>
  ok<ReceptionView>(env.app, 'POST', `${T}/receptions/${code}/lines`, line);
/** A document's status as endpoint 8's `status` criteria sees it (the DTO has no status member). */
async function documentStatus(env: Env, externalCode: string): Promise<string | undefined> {
  for (const status of ['CREATED', 'IN_PROGRESS', 'EXECUTED', 'CANCELLED']) {
    const res = await call<unknown[]>(
      env.app,
      'GET',
      `${API}/document?externalCode.equals=${externalCode}&status.equals=${status}`,
      { token: env.token },
    );
    if (res.body.length === 1) return status;
  }
  return undefined;
}
const differences = (env: Env, code: string, token = env.token) =>
  call(env.app, 'GET', `${API}/reception/${code}/differences`, { token });

describe('receptions: NEW → EXECUTING → SUBMITTED → CLOSING → CLOSED', () => {
  it('moves through every status; the document goes IN_PROGRESS then EXECUTED; closing adds the received quantities to stock', async () => {
    const env = await warehouseTenant();
    const held = gate();
    const receiver = await startReceiver(async () => (await held.promise, { status: 200, body: { success: true } }));
    receivers.push(receiver);
    await ok(env.app, 'PUT', `${T}/webhooks`, { receptionCloseUrl: `${receiver.url}/rc` });
    await purchaseOrder(env);
    const opened = await open(env, ['PO-1']);
    expect(await documentStatus(env, 'PO-1')).toBe('IN_PROGRESS');
    expect(opened).toMatchObject({
      receptionCode: expect.stringMatching(/^REC\d{4}-\d+$/),
      status: 'NEW',
      warehouse: 'MAIN',
      documents: [{ status: 'IN_PROGRESS' }],
    });
    const code = opened.receptionCode;
    expect((await receive(env, code, { productExternalCode: 'P1', quantity: 12, location: 'A1' })).status).toBe(
      'EXECUTING',
    );
    await receive(env, code, { productExternalCode: 'LOT', quantity: 4, lotCode: 'L1' });
    expect((await ok<ReceptionView>(env.app, 'POST', `${T}/receptions/${code}/submit`)).status).toBe('SUBMITTED');
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([{ existence: 0 }]);

    const closed = await ok<ReceptionView>(env.app, 'POST', `${T}/receptions/${code}/close`, {
      observations: 'pallet 2 damaged',
    });
    // CLOSING while the close webhook is being delivered (the receiver holds its answer)
    expect(closed).toMatchObject({
      status: 'CLOSING',
      documents: [{ status: 'EXECUTED' }],
      webhookIds: [expect.any(Number)],
    });
    expect(closed.closingDocuments).toEqual([
      {
        closingDocumentCode: expect.stringMatching(/^GR\d{4}-\d+$/),
        documentExternalCode: 'PO-1',
        webhook: 'reception-close',
        integration: { status: 'pending', message: null },
      },
    ]);
    expect((await differences(env, code)).body).toMatchObject({ receptionStatus: 'CLOSING' });
    expect(
      (await stock(env.app, env.token, { products: [{ product: 'P1' }, { product: 'LOT', lot: 'L1' }] })).body,
    ).toEqual([
      { bulk: 12, containers: 0, reservedShipping: 0, existence: 12, available: 12, product: 'P1' },
      { bulk: 4, containers: 0, reservedShipping: 0, existence: 4, available: 4, product: 'LOT', lot: 'L1' },
    ]);
    expect((await stock(env.app, env.token, { product: 'P1', location: 'A1' })).body).toMatchObject([
      { existence: 12, node: 'A1' },
    ]);
    expect(await documentStatus(env, 'PO-1')).toBe('EXECUTED');

    held.open();
    await env.emulator.state.webhooks.settled('acme');
    const after = await ok<ReceptionView>(env.app, 'GET', `${T}/receptions/${code}`);
    expect(after.status).toBe('CLOSED');
    expect(after.closingDocuments[0]!.integration).toEqual({ status: 'succeeded', message: null });
  });

  it('without webhook settings the reception is CLOSED at once and its closing document says not_configured', async () => {
    const env = await warehouseTenant();
    await purchaseOrder(env);
    const { receptionCode } = await open(env, ['PO-1']);
    await receive(env, receptionCode, { productExternalCode: 'P1', quantity: 1, inContainers: true });
    const closed = await ok<ReceptionView>(env.app, 'POST', `${T}/receptions/${receptionCode}/close`);
    expect(closed).toMatchObject({
      status: 'CLOSED',
      webhookIds: [],
      closingDocuments: [{ integration: { status: 'not_configured' } }],
    });
    expect((await stock(env.app, env.token, { product: 'P1' })).body).toMatchObject([
      { bulk: 0, containers: 1, existence: 1 },
    ]);
  });

  it('refuses what the state does not allow, with the control error shape', async () => {
    const env = await warehouseTenant();
    await purchaseOrder(env);
    await createDocument(env.app, env.token, {
      externalCode: 'CE-1',
      documentType: 'CLIENT_EXPEDITION',
      lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'P1' }],
    });
    await createDocument(env.app, env.token, { externalCode: 'PO-X', documentType: 'PURCHASE_ORDER' });
    await call(env.app, 'POST', `${API}/document/cancel`, {
      token: env.token,
      json: { externalCode: 'PO-X', documentType: 'PURCHASE_ORDER' },
    });
    const refused: [string, string, unknown, number, string][] = [
      ['POST', `${T}/receptions`, { documents: ['NOPE'] }, 404, 'document_not_found'],
      ['POST', `${T}/receptions`, { documents: ['CE-1'] }, 400, 'not_inbound'],
      ['POST', `${T}/receptions`, { documents: ['PO-X'] }, 409, 'document_not_receivable'],
      ['POST', `${T}/receptions`, { documents: ['PO-1', 'PO-1'] }, 400, 'invalid_request'],
      ['POST', `${T}/receptions`, { documents: [] }, 400, 'invalid_request'],
      ['POST', `${T}/receptions`, { documents: ['PO-1'], warehouse: 'W9' }, 400, 'warehouse_not_found'],
      ['POST', '/tenants/nope/receptions', { documents: ['PO-1'] }, 404, 'tenant_not_found'],
      [
        'POST',
        `${T}/receptions/REC1999-1/lines`,
        { productExternalCode: 'P1', quantity: 1 },
        404,
        'reception_not_found',
      ],
    ];
    for (const [method, path, body, status, error] of refused) {
      const res = await control(env.app, method, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body).toMatchObject({ error });
    }
    const { receptionCode } = await open(env, ['PO-1']);
    expect((await control(env.app, 'POST', `${T}/receptions`, { documents: ['PO-1'] })).body).toMatchObject({
      error: 'document_in_reception',
    });
    // the document is IN_PROGRESS: endpoint 12 can no longer cancel it
    expect(
      (
        await call(env.app, 'POST', `${API}/document/cancel`, {
          token: env.token,
          json: { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' },
        })
      ).status,
    ).toBe(409);
    expect((await control(env.app, 'POST', `${T}/receptions/${receptionCode}/submit`)).body).toMatchObject({
      error: 'reception_not_executing',
    });
    const lines: [Record<string, unknown>, string][] = [
      [{ productExternalCode: 'LOT', quantity: 1 }, 'lot_required'],
      [{ productExternalCode: 'LOT', quantity: 1, lotCode: 'L9' }, 'expiration_required'],
      [{ productExternalCode: 'P1', quantity: 1, lotCode: 'L1' }, 'lot_not_tracked'],
      [{ productExternalCode: 'SER', quantity: 2, serialNumbers: ['S1'] }, 'serials_mismatch'],
      [{ productExternalCode: 'P1', quantity: 1, serialNumbers: ['S1'] }, 'serials_not_tracked'],
      [{ productExternalCode: 'P1', quantity: 1, documentExternalCode: 'CE-1' }, 'document_not_in_reception'],
      [{ productExternalCode: 'P1', quantity: 0 }, 'invalid_request'],
      [{ productExternalCode: 'P1', quantity: 1, expirationDate: '31/01/2026' }, 'invalid_request'],
    ];
    for (const [line, error] of lines) {
      const res = await control(env.app, 'POST', `${T}/receptions/${receptionCode}/lines`, line);
      expect(res.status, error).toBe(400);
      expect(res.body, JSON.stringify(line)).toMatchObject({ error });
    }
    await ok(env.app, 'POST', `${T}/receptions/${receptionCode}/close`);
    expect((await control(env.app, 'POST', `${T}/receptions/${receptionCode}/close`)).body).toMatchObject({
      error: 'reception_closed',
    });
    expect(
      (
        await control(env.app, 'POST', `${T}/receptions/${receptionCode}/lines`, {
          productExternalCode: 'P1',
          quantity: 1,
        })
      ).body,
    ).toMatchObject({ error: 'reception_not_open' });
  });

  it('document criteria receptionsId finds the documents of a reception', async () => {
    const env = await warehouseTenant();
    await purchaseOrder(env, 'PO-1');
    await purchaseOrder(env, 'PO-2');
    await purchaseOrder(env, 'PO-3');
    const reception = await open(env, ['PO-1', 'PO-3']);
    const res = await call<{ externalCode: string }[]>(
      env.app,
      'GET',
      `${API}/document?receptionsId.equals=${reception.id}`,
      { token: env.token },
    );
    expect(res.body.map((d) => d.externalCode)).toEqual(['PO-1', 'PO-3']);
  });
});

describe('endpoint 17 GET /reception/{receptionCode}/differences', () => {
  it('spec: "positive = surplus, negative = shortage", per product/lot and aggregated per product, unknown products apart', async () => {
    const env = await warehouseTenant();
    await purchaseOrder(env, 'PO-1', [
      { lineNumber: 1, quantity: 10, productExternalCode: 'P1' },
      { lineNumber: 2, quantity: 5, productExternalCode: 'LOT', lotCode: 'L1' },
      { lineNumber: 3, quantity: 2, productExternalCode: 'SER' },
    ]);
    await purchaseOrder(env, 'PO-2', [{ lineNumber: 1, quantity: 4, productExternalCode: 'LOT' }]);
    const { receptionCode } = await open(env, ['PO-1', 'PO-2']);
    await receive(env, receptionCode, { productExternalCode: 'P1', quantity: 12 });
    await receive(env, receptionCode, { productExternalCode: 'LOT', quantity: 3, lotCode: 'L1' });
    await receive(env, receptionCode, {
      productExternalCode: 'LOT',
      quantity: 6,
      lotCode: 'L2',
      expirationDate: '2027-06-30',
    });
    await receive(env, receptionCode, { productExternalCode: 'SER', quantity: 2, serialNumbers: ['A', 'B'] });
    await receive(env, receptionCode, { productExternalCode: 'GHOST', quantity: 3 });
    await receive(env, receptionCode, { productExternalCode: 'GHOST', quantity: 1, lotCode: 'G1' });
    const res = await differences(env, receptionCode);
    expect(res.status).toBe(200);
    expect(receptionDifferencesSchema.parse(res.body)).toEqual({
      receptionCode,
      receptionStatus: 'EXECUTING',
      documentNumbers: ['N-PO-1', 'N-PO-2'],
      productLotDifferences: [
        { productExternalCode: 'P1', lotCode: null, quantity: 2 },
        // L1 was ordered by lot (5, 3 arrived); PO-2's line without lot expects any lot, and L2 arrived for it (6 for 4)
        { productExternalCode: 'LOT', lotCode: 'L1', quantity: -2 },
        { productExternalCode: 'LOT', lotCode: null, quantity: 2 },
      ],
      productDifferences: [{ productExternalCode: 'P1', quantity: 2 }],
      nonExistingProductDifferences: [{ productExternalCode: 'GHOST', quantity: 4 }],
    });
    // unknown products are never stocked
    await ok(env.app, 'POST', `${T}/receptions/${receptionCode}/close`);
    expect((await stock(env.app, env.token, {})).body).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ product: 'GHOST' })]),
    );
  });

  it("404 for an unknown reception and for another tenant's; 401 without a token", async () => {
    const env = await warehouseTenant();
    await purchaseOrder(env);
    const { receptionCode } = await open(env, ['PO-1']);
    const unknown = await differences(env, 'REC1999-9');
    expect(unknown.status).toBe(404);
    expect(expectBadRequestObject(unknown.body, 404)).toMatchObject({ entityName: 'reception' });
    const other = await provision(env.app, 'other');
    expect((await differences(env, receptionCode, other.token)).status).toBe(404);
    expect((await call(env.app, 'GET', `${API}/reception/${receptionCode}/differences`)).status).toBe(401);
  });
});
