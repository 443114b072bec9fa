import { beforeAll, describe, expect, it } from 'vitest';
import { setDocumentStatus } from '../../src/emulator/documents/status.js';
import type { Document } from '../../src/wms/index.js';
import { API, call, expectBadRequestObject, provision, setup } from './support.js';

// Endpoint 8 with the document criteria (ReceptionNoteCriteria), AND-combined.
const { app, emulator, clock } = setup();
let token = '';
const created: Record<string, string> = {}; // externalCode → ISO time of its last change

const doc = (externalCode: string, documentType: string, extra: Record<string, unknown> = {}) => ({
  externalCode,
  documentNumber: `N-${externalCode}`,
  documentType,
  lines: [{ lineNumber: 1, quantity: 1, productExternalCode: 'P1' }],
  ...extra,
});

beforeAll(async () => {
  token = (await provision(app, 'acme')).token;
  await call(app, 'POST', `${API}/product`, { token, json: { externalCode: 'P1', description: 'P1' } });
  await call(app, 'POST', `${API}/delivery-point`, {
    token,
    json: { externalCode: 'SHOP-1', active: true, name: 'Corner Shop', types: ['CLIENT'] },
  });
  const docs = [
    doc('D1', 'PURCHASE_ORDER', { documentDate: '2025-01-10', reference: 'alpha', originExternalCode: 'SUP-9' }),
    doc('D2', 'PURCHASE_ORDER', { documentDate: '2025-02-20', deliveryDate: '2025-03-02T23:30:00-02:00' }),
    doc('D3', 'CLIENT_EXPEDITION', {
      documentDate: '2025-02-21',
      deliveryPointExternalCode: 'SHOP-1',
      deliveryPlace: 'Dock 4',
    }),
    doc('D4', 'CLIENT_EXPEDITION', { observations: 'fragile', lines: [] }),
  ];
  for (const json of docs) {
    clock.advance(60_000);
    created[json.externalCode] = clock.now().toISOString();
    expect((await call(app, 'POST', `${API}/document`, { token, json })).status).toBe(201);
  }
  const id = (code: string) =>
    (emulator.state.ctx.db.prepare('SELECT id FROM documents WHERE external_code = ?').get(code) as { id: number }).id;
  setDocumentStatus(emulator.state.ctx, id('D2'), 'EXECUTED');
  setDocumentStatus(emulator.state.ctx, id('D3'), 'IN_PROGRESS');
});

async function codes(query: string): Promise<string[]> {
  const res = await call<Document[]>(app, 'GET', `${API}/document?${query}`, { token });
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.map((d) => d.externalCode).sort();
}

describe('ReceptionNoteStatusFilter (status)', () => {
  it.each([
    ['status.equals=CREATED', ['D1', 'D4']],
    ['status.notEquals=CREATED', ['D2', 'D3']],
    ['status.in=EXECUTED,IN_PROGRESS', ['D2', 'D3']],
    ['status.notIn=EXECUTED,IN_PROGRESS', ['D1', 'D4']],
    ['status.specified=true', ['D1', 'D2', 'D3', 'D4']],
    ['isDoneGroup.equals=true', ['D2']],
  ])('%s', async (query, expected) => expect(await codes(query)).toEqual(expected));
});

describe('IntegerFilter, StringFilter and the WMS document code', () => {
  it('numbers documents per series and year: PO2025/1, PO2025/2, CE2025/1, CE2025/2', async () => {
    expect(await codes('code.equals=PO2025/2')).toEqual(['D2']);
    expect(await codes('series.equals=CE&number.equals=2')).toEqual(['D4']);
    expect(await codes('year.equals=2025')).toHaveLength(4);
    expect(await codes('year.lessThan=2025')).toEqual([]);
    expect(await codes('number.greaterThanOrEqual=2')).toEqual(['D2', 'D4']);
    expect(await codes('number.in=1')).toEqual(['D1', 'D3']);
  });

  it.each([
    ['externalCode.in=D1,D3', ['D1', 'D3']],
    ['reference.specified=true', ['D1']],
    ['codeOrNumberOrReference.contains=alp', ['D1']],
    ['codeOrNumberOrReference.equals=N-D4', ['D4']],
    ['originCode.equals=SUP-9', ['D1']],
    ['observation.contains=FRAG', ['D4']],
    ['deliveryTarget.equals=Dock 4', ['D3']],
    ['deliveryPointName.contains=corner', ['D3']],
    ['search.contains=CE2025', ['D3', 'D4']],
    ['priority.specified=false', ['D1', 'D2', 'D3', 'D4']],
    ['receptionsId.equals=1', []],
  ])('%s', async (query, expected) => expect(await codes(query)).toEqual(expected));

  it('deliveryPointId is the id of the delivery point named by the document', async () => {
    const { id } = emulator.state.ctx.db
      .prepare("SELECT id FROM delivery_points WHERE external_code = 'SHOP-1'")
      .get() as { id: number };
    expect(await codes(`deliveryPointId.equals=${id}`)).toEqual(['D3']);
    expect(await codes('deliveryPointId.specified=true')).toEqual(['D3']);
  });

  it('linesId: documents with lines', async () => {
    expect(await codes('linesId.specified=true')).toEqual(['D1', 'D2', 'D3']);
    expect(await codes('linesId.specified=false')).toEqual(['D4']);
  });
});

describe('LocalDateFilter (documentDate, deliveryDate) and InstantFilter (lastModifiedDate)', () => {
  it.each([
    ['documentDate.equals=2025-02-20', ['D2']],
    ['documentDate.greaterThan=2025-02-20', ['D3']],
    ['documentDate.lessThanOrEqual=2025-02-20', ['D1', 'D2']],
    ['documentDate.specified=false', ['D4']],
    // the webhook date's own calendar day, in the offset it was sent with
    ['deliveryDate.equals=2025-03-02', ['D2']],
    ['deliveryDate.greaterThan=2025-03-02', []],
  ])('%s', async (query, expected) => expect(await codes(query)).toEqual(expected));

  it('lastModifiedDate compares instants, offsets included', async () => {
    expect(await codes(`lastModifiedDate.greaterThan=${encodeURIComponent(created.D2!)}`)).toEqual(['D2', 'D3', 'D4']); // status changes touch D2, D3
    expect(await codes(`lastModifiedDate.lessThanOrEqual=${encodeURIComponent(created.D1!)}`)).toEqual(['D1']);
    const d1 = new Date(created.D1!);
    const sameInstantOtherOffset = new Date(d1.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(await codes(`lastModifiedDate.equals=${encodeURIComponent(sameInstantOtherOffset)}`)).toEqual(['D1']);
  });

  it('400 for an instant without offset or a date-time where a date is expected', async () => {
    for (const query of [
      'lastModifiedDate.greaterThan=2025-03-01T12:00:00',
      'documentDate.equals=2025-02-20T00:00:00Z',
      'status.equals=DONE',
      'year.equals=2025.5',
    ]) {
      const res = await call(app, 'GET', `${API}/document?${query}`, { token });
      expect(res.status, query).toBe(400);
      expectBadRequestObject(res.body, 400);
    }
  });
});

describe('pagination', () => {
  it('X-Total-Count and Link over the filtered set; sort by code descending', async () => {
    const res = await call<Document[]>(app, 'GET', `${API}/document?status.notEquals=CANCELLED&size=3&sort=code,desc`, {
      token,
    });
    expect(res.status).toBe(200);
    expect(res.body.map((d) => d.externalCode)).toEqual(['D2', 'D1', 'D4']);
    expect(res.headers.get('x-total-count')).toBe('4');
    expect(res.headers.get('link')).toContain('page=1&size=3>; rel="next"');
  });
});
