import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileFormatError, readItems } from '../../src/push/files.js';
import { documentSchema, productSchema } from '../../src/wms/index.js';
import { tempDir } from '../support/tmp.js';

const tmp = tempDir('push-files');
afterAll(() => tmp.remove());
const file = (name: string, text: string) => {
  const path = join(tmp.dir, name);
  writeFileSync(path, text);
  return path;
};

describe('bulk-load files', () => {
  it('reads products from CSV with typed booleans and numbers, indexed barcodes and lots, empty cells left out', async () => {
    const path = file(
      'p.csv',
      '\ufeffexternalCode,description,withLots,weight,daysToNotifyExpirationDate,barcodes.0.code,barcodes.0.type,barcodes.1.code,barcodes.1.type,lots.0.code,lots.0.active,lots.0.expirationDate\n' +
        'P1,Olive oil 1L,true,0.92,30,5601234567890,GTIN,OIL-1,OTHER,L1,yes,2027-01-31\n' +
        'P2,"Flour, 1 kg",no,,,,,,,,,\n',
    );
    const items = await readItems('products', path);
    expect(items.map((i) => i.source)).toEqual(['row 2', 'row 3']);
    expect(items[0]!.value).toEqual({
      externalCode: 'P1',
      description: 'Olive oil 1L',
      withLots: true,
      weight: 0.92,
      daysToNotifyExpirationDate: 30,
      barcodes: [
        { code: '5601234567890', type: 'GTIN' },
        { code: 'OIL-1', type: 'OTHER' },
      ],
      lots: [{ code: 'L1', active: true, expirationDate: '2027-01-31' }],
    });
    expect(items[1]!.value).toEqual({ externalCode: 'P2', description: 'Flour, 1 kg', withLots: false });
    for (const i of items) expect(productSchema.safeParse(i.value).success).toBe(true);
  });

  it('keeps a value it cannot type as text, so the schema names the field', async () => {
    const [item] = await readItems('products', file('bad.csv', 'externalCode,description,weight\nP1,x,heavy\n'));
    const parsed = productSchema.safeParse(item!.value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['weight']);
  });

  it('reads documents from CSV, one row per line, rows of one externalCode making one document', async () => {
    const path = file(
      'd.csv',
      'externalCode,documentNumber,documentType,deliveryPointExternalCode,lines.lineNumber,lines.quantity,lines.productExternalCode,lines.lotCode\n' +
        'PO-1,2026/1,PURCHASE_ORDER,SUP-1,1,10,P1,L1\n' +
        'SO-1,2026/7,CLIENT_EXPEDITION,CLI-1,1,3,P1,\n' +
        'PO-1,2026/1,PURCHASE_ORDER,SUP-1,2,5.5,P2,\n',
    );
    const items = await readItems('documents', path);
    expect(items.map((i) => i.source)).toEqual(['row 2', 'row 3']);
    expect(items[0]!.value).toMatchObject({
      externalCode: 'PO-1',
      documentType: 'PURCHASE_ORDER',
      lines: [
        { lineNumber: 1, quantity: 10, productExternalCode: 'P1', lotCode: 'L1' },
        { lineNumber: 2, quantity: 5.5, productExternalCode: 'P2' },
      ],
    });
    for (const i of items) expect(documentSchema.safeParse(i.value).success).toBe(true);
  });

  it('reads JSON as an array or as {items}', async () => {
    expect(await readItems('delivery-points', file('a.json', '[{"externalCode":"D"}]'))).toEqual([
      { source: 'item 0', value: { externalCode: 'D' } },
    ]);
    expect(await readItems('delivery-points', file('b.json', '{"items":[{},{}]}'))).toHaveLength(2);
  });

  it('refuses broken JSON, a JSON object without items, broken CSV and other extensions with a clear message', async () => {
    await expect(readItems('products', file('c.json', '[{'))).rejects.toThrow(/not valid JSON/);
    await expect(readItems('products', file('d.json', '{"a":1}'))).rejects.toThrow(/array of items/);
    await expect(readItems('products', file('e.csv', 'a,b\n"x,1\n'))).rejects.toThrow(/not valid CSV/);
    await expect(readItems('products', file('f.xml', '<x/>'))).rejects.toBeInstanceOf(FileFormatError);
  });
});
