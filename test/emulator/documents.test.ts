import { afterAll, describe, expect, it } from 'vitest';
import { setDocumentStatus } from '../../src/emulator/documents/status.js';
import { type EmulatorServer, startEmulatorServer } from '../../src/emulator/index.js';
import { conflictObjectSchema, type Document, documentSchema } from '../../src/wms/index.js';
import { API, call, expectBadRequestObject, provision, setup } from './support.js';

const DOCUMENT = `${API}/document`;
const order = {
  externalCode: 'PO-1',
  documentNumber: 'PO 2025/1',
  documentType: 'PURCHASE_ORDER',
  documentDate: '2025-02-28',
  deliveryDate: '2025-03-05T09:00:00+01:00',
  originExternalCode: 'SUP-1',
  charge: false,
  lines: [
    {
      lineNumber: 1,
      quantity: 10,
      productExternalCode: 'P1',
      lotCode: 'L1',
      categories: [{ category: 'A', quantity: 10 }],
    },
    { lineNumber: 2, quantity: 2.5, productExternalCode: 'P2' },
  ],
};

async function tenantWithProducts(name = 'acme') {
  const env = setup();
  const p = await provision(env.app, name);
  for (const code of ['P1', 'P2', 'P3'])
    await call(env.app, 'POST', `${API}/product`, { token: p.token, json: { externalCode: code, description: code } });
  return { ...env, token: p.token };
}

function documentId(env: Awaited<ReturnType<typeof tenantWithProducts>>, externalCode: string): number {
  return (
    env.emulator.state.ctx.db.prepare('SELECT id FROM documents WHERE external_code = ?').get(externalCode) as {
      id: number;
    }
  ).id;
}

describe('endpoint 9 POST /document', () => {
  it('201 with the document as stored', async () => {
    const { app, token } = await tenantWithProducts();
    const res = await call<Document>(app, 'POST', DOCUMENT, { token, json: order });
    expect(res.status).toBe(201);
    expect(documentSchema.parse(res.body)).toEqual(order);
    expect((await call(app, 'GET', `${DOCUMENT}/PO-1`, { token })).body).toEqual(order);
  });

  it('a repeat answers the existing document and changes nothing (spec: "Endpoint 9 uses externalCode as idempotency key")', async () => {
    const { app, token } = await tenantWithProducts();
    await call(app, 'POST', DOCUMENT, { token, json: order });
    const repeat = await call<Document>(app, 'POST', DOCUMENT, {
      token,
      json: { ...order, documentNumber: 'CHANGED', lines: [] },
    });
    expect(repeat.status).toBe(201);
    expect(repeat.body).toEqual(order);
    expect(
      (await call(app, 'GET', `${DOCUMENT}?externalCode.equals=PO-1`, { token })).headers.get('x-total-count'),
    ).toBe('1');
  });

  it('400 naming every missing product, 400 for a repeated line number', async () => {
    const { app, token } = await tenantWithProducts();
    const missing = await call(app, 'POST', DOCUMENT, {
      token,
      json: {
        ...order,
        lines: [
          ...order.lines,
          { lineNumber: 3, quantity: 1, productExternalCode: 'NOPE-1' },
          { lineNumber: 4, quantity: 1, productExternalCode: 'NOPE-2' },
        ],
      },
    });
    expect(missing.status).toBe(400);
    expect(expectBadRequestObject(missing.body, 400)).toMatchObject({
      errorKey: 'productnotfound',
      title: 'Product not found: NOPE-1, NOPE-2',
    });
    const repeated = await call(app, 'POST', DOCUMENT, {
      token,
      json: { ...order, lines: [order.lines[0], { ...order.lines[1], lineNumber: 1 }] },
    });
    expect(repeated.status).toBe(400);
    expect((await call(app, 'GET', `${DOCUMENT}/PO-1`, { token })).status).toBe(404);
  });

  it('400 for missing required members, a bad type enum, a delivery date without offset, a non-numeric quantity', async () => {
    const { app, token } = await tenantWithProducts();
    const cases: [unknown, string][] = [
      [{ ...order, documentNumber: undefined }, 'documentNumber'],
      [{ ...order, documentType: 'INVOICE' }, 'documentType'],
      [{ ...order, deliveryDate: '2025-03-05T09:00:00' }, 'deliveryDate'],
      [{ ...order, documentDate: '05/03/2025' }, 'documentDate'],
      [{ ...order, lines: [{ lineNumber: 1, quantity: 'ten', productExternalCode: 'P1' }] }, 'lines[0].quantity'],
      [{ ...order, lines: [{ lineNumber: 1, quantity: 1 }] }, 'lines[0].productExternalCode'],
    ];
    for (const [json, field] of cases) {
      const res = await call(app, 'POST', DOCUMENT, { token, json });
      expect(res.status, field).toBe(400);
      expect(expectBadRequestObject(res.body, 400).title, field).toContain(field);
    }
  });
});

describe('endpoint 9 under concurrent repeats (real HTTP)', () => {
  let server: EmulatorServer | undefined;
  afterAll(async () => server?.close());

  it('30 simultaneous creates of one externalCode leave exactly one document, and all 30 answer it', async () => {
    const env = await tenantWithProducts();
    server = await startEmulatorServer({ emulator: env.emulator });
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${server!.url}${DOCUMENT}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...order, reference: `attempt ${i}` }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Document })),
      ),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    expect(new Set(replies.map((r) => r.body.reference)).size).toBe(1);
    const count = env.emulator.state.ctx.db
      .prepare("SELECT count(*) AS n FROM documents WHERE external_code = 'PO-1'")
      .get() as { n: number };
    expect(count.n).toBe(1);
  });
});

describe('endpoint 10 PUT /document', () => {
  it('replaces members and lines while CREATED', async () => {
    const { app, token } = await tenantWithProducts();
    await call(app, 'POST', DOCUMENT, { token, json: order });
    const changed = {
      ...order,
      reference: 'R-2',
      carrier: 'DHL',
      lines: [{ lineNumber: 1, quantity: 3, productExternalCode: 'P3' }],
    };
    const res = await call<Document>(app, 'PUT', DOCUMENT, { token, json: changed });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(changed);
  });

  it('409 with the conflict object once the document is IN_PROGRESS, EXECUTED or CANCELLED', async () => {
    const env = await tenantWithProducts();
    await call(env.app, 'POST', DOCUMENT, { token: env.token, json: order });
    for (const status of ['IN_PROGRESS', 'EXECUTED', 'CANCELLED'] as const) {
      setDocumentStatus(env.emulator.state.ctx, documentId(env, 'PO-1'), status);
      const res = await call(env.app, 'PUT', DOCUMENT, { token: env.token, json: { ...order, reference: 'late' } });
      expect(res.status, status).toBe(409);
      const body = conflictObjectSchema.parse(res.body);
      expect(body).toMatchObject({
        status: { statusCode: 409, reasonPhrase: 'Conflict' },
        entityName: 'document',
        errorKey: 'documentnoteditable',
        stackTrace: [],
      });
    }
  });

  it('400 for an unknown externalCode, a changed type, or a missing product', async () => {
    const { app, token } = await tenantWithProducts();
    expect(expectBadRequestObject((await call(app, 'PUT', DOCUMENT, { token, json: order })).body, 400).errorKey).toBe(
      'idnotfound',
    );
    await call(app, 'POST', DOCUMENT, { token, json: order });
    expect(
      (await call(app, 'PUT', DOCUMENT, { token, json: { ...order, documentType: 'CLIENT_RETURN' } })).body,
    ).toMatchObject({ errorKey: 'documenttypechange' });
    const missing = await call(app, 'PUT', DOCUMENT, {
      token,
      json: { ...order, lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'GHOST' }] },
    });
    expect(missing.body).toMatchObject({ errorKey: 'productnotfound' });
    expect((await call<Document>(app, 'GET', `${DOCUMENT}/PO-1`, { token })).body.lines).toEqual(order.lines);
  });
});

describe('endpoint 11 GET /document/{externalCode} and endpoint 12 POST /document/cancel', () => {
  it('404 for an unknown document', async () => {
    const { app, token } = await tenantWithProducts();
    const res = await call(app, 'GET', `${DOCUMENT}/NOPE`, { token });
    expect(res.status).toBe(404);
    expect(expectBadRequestObject(res.body, 404).entityName).toBe('document');
  });

  it('cancels from CREATED; a repeated cancel succeeds too; the status filter sees CANCELLED', async () => {
    const { app, token } = await tenantWithProducts();
    await call(app, 'POST', DOCUMENT, { token, json: order });
    const res = await call(app, 'POST', `${DOCUMENT}/cancel`, {
      token,
      json: { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Document cancelled' });
    const again = await call(app, 'POST', `${DOCUMENT}/cancel`, {
      token,
      json: { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' },
    });
    expect(again.body).toEqual({ success: true, message: 'Document already cancelled' });
    expect(
      (await call(app, 'GET', `${DOCUMENT}?status.equals=CANCELLED`, { token })).headers.get('x-total-count'),
    ).toBe('1');
  });

  it('404 for an unknown document or another type; 409 once IN_PROGRESS; 400 for a bad body', async () => {
    const env = await tenantWithProducts();
    const { app, token } = env;
    await call(app, 'POST', DOCUMENT, { token, json: order });
    expect(
      (
        await call(app, 'POST', `${DOCUMENT}/cancel`, {
          token,
          json: { externalCode: 'NOPE', documentType: 'PURCHASE_ORDER' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(app, 'POST', `${DOCUMENT}/cancel`, {
          token,
          json: { externalCode: 'PO-1', documentType: 'CLIENT_RETURN' },
        })
      ).status,
    ).toBe(404);
    expect((await call(app, 'POST', `${DOCUMENT}/cancel`, { token, json: { externalCode: 'PO-1' } })).status).toBe(400);
    setDocumentStatus(env.emulator.state.ctx, documentId(env, 'PO-1'), 'IN_PROGRESS');
    const busy = await call(app, 'POST', `${DOCUMENT}/cancel`, {
      token,
      json: { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' },
    });
    expect(busy.status).toBe(409);
    expect(conflictObjectSchema.parse(busy.body).errorKey).toBe('documentnotcancellable');
  });
});

describe('documents: security and tenant isolation', () => {
  it('every document endpoint answers 401 without a token', async () => {
    const { app } = await tenantWithProducts();
    const requests: [string, string, unknown?][] = [
      ['GET', DOCUMENT],
      ['POST', DOCUMENT, order],
      ['PUT', DOCUMENT, order],
      ['GET', `${DOCUMENT}/PO-1`],
      ['POST', `${DOCUMENT}/cancel`, { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' }],
    ];
    for (const [method, path, json] of requests) {
      expect((await call(app, method, path, json === undefined ? {} : { json })).status, `${method} ${path}`).toBe(401);
    }
  });

  it('another tenant neither sees, changes nor cancels a document; its products do not count for lines', async () => {
    const a = await tenantWithProducts('tenant-a');
    const b = await provision(a.app, 'tenant-b');
    await call(a.app, 'POST', DOCUMENT, { token: a.token, json: order });
    expect((await call(a.app, 'GET', `${DOCUMENT}/PO-1`, { token: b.token })).status).toBe(404);
    expect((await call(a.app, 'GET', DOCUMENT, { token: b.token })).body).toEqual([]);
    expect((await call(a.app, 'PUT', DOCUMENT, { token: b.token, json: order })).status).toBe(400);
    expect(
      (
        await call(a.app, 'POST', `${DOCUMENT}/cancel`, {
          token: b.token,
          json: { externalCode: 'PO-1', documentType: 'PURCHASE_ORDER' },
        })
      ).status,
    ).toBe(404);
    // tenant B has no products P1/P2: its own PO-1 is refused, and tenant A's stays as it was
    expect((await call(a.app, 'POST', DOCUMENT, { token: b.token, json: order })).body).toMatchObject({
      errorKey: 'productnotfound',
    });
    expect((await call(a.app, 'GET', `${DOCUMENT}/PO-1`, { token: a.token })).body).toEqual(order);
  });
});
