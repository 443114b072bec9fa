import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDate, readDateTime } from '../../src/wms/datetime.js';
import {
  readCloseReception,
  readCloseShipping,
  readNumber,
  readStockRegularization,
} from '../../src/wms/webhooks-tolerant.js';

// spec: "date-time (ISO 8601)"; "movementTime | date-time | ISO 8601 with offset"; "date (YYYY-MM-DD)".
describe('datetime: every ISO 8601 form a WMS may write, to one canonical form', () => {
  it.each([
    ['2026-11-22T16:41:07+01:00', '2026-11-22T15:41:07.000Z'],
    ['2026-11-22T16:41:07+0100', '2026-11-22T15:41:07.000Z'],
    ['2026-11-22T16:41:07+01', '2026-11-22T15:41:07.000Z'],
    ['2026-11-22T16:41+01:00', '2026-11-22T15:41:00.000Z'],
    ['2026-11-22T15:41:07Z', '2026-11-22T15:41:07.000Z'],
    ['2026-11-22T15:41:07.5Z', '2026-11-22T15:41:07.500Z'],
    ['2026-11-22T15:41:07.123456Z', '2026-11-22T15:41:07.123Z'],
    ['2026-11-22T15:41:07.123456789-05:30', '2026-11-22T21:11:07.123Z'],
    ['2026-11-22t15:41:07z', '2026-11-22T15:41:07.000Z'],
    ['2026-11-22 15:41:07+00:00', '2026-11-22T15:41:07.000Z'],
    ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00.000Z'],
  ])('%s → %s', (text, canonical) => {
    expect(readDateTime(text)).toBe(canonical);
  });

  it.each([
    '2026-11-22T16:41:07',
    '2026-11-22',
    '2026-02-30T10:00Z',
    '2026-11-22T24:00Z',
    '2026-11-22T10:60Z',
    '2026-11-22T10:00+25:00',
    '22/11/2026 10:00',
    '2026-11-22T10:00:00.Z',
    '',
  ])('%j is not a date-time with offset', (text) => {
    expect(readDateTime(text)).toBeUndefined();
  });

  it("a date is YYYY-MM-DD or a date-time, whose date part is kept as written (the warehouse's day, not UTC's)", () => {
    expect(readDate('2026-11-20')).toBe('2026-11-20');
    expect(readDate('2026-11-20T23:30:00-05:00')).toBe('2026-11-20');
    expect(readDate('2026-11-20T00:00:00.000Z')).toBe('2026-11-20');
    expect(readDate('2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2026-02-29', '2026-13-01', '20261120', '2026-11-20T10:00', 'tomorrow'])
      expect(readDate(bad)).toBeUndefined();
  });

  it('property: any instant written with any offset and precision reads back as that instant, to the millisecond', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        fc.constantFrom('colon', 'compact', 'hours'),
        (date, offsetMinutes, style) => {
          const offset = style === 'hours' ? Math.trunc(offsetMinutes / 60) * 60 : offsetMinutes;
          const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 23);
          const sign = offset < 0 ? '-' : '+';
          const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
          const mm = String(Math.abs(offset) % 60).padStart(2, '0');
          const suffix =
            style === 'colon' ? `${sign}${hh}:${mm}` : style === 'compact' ? `${sign}${hh}${mm}` : `${sign}${hh}`;
          expect(readDateTime(`${local}${suffix}`)).toBe(date.toISOString());
        },
      ),
    );
  });
});

describe('tolerant reading of the webhook payloads', () => {
  it('numbers: JSON numbers, fractions included, or a string holding exactly a JSON number', () => {
    expect(readNumber(12.5)).toBe(12.5);
    expect(readNumber('12.5')).toBe(12.5);
    expect(readNumber('-3')).toBe(-3);
    expect(readNumber('1e3')).toBe(1000);
    for (const bad of ['12,5', ' 12', '+3', '0x10', '', 'NaN', 'Infinity', '1e999', null, true, [1]])
      expect(readNumber(bad)).toBeUndefined();
  });

  it('a close reception with every optional member absent, null or "" reads to the canonical shape', () => {
    const reading = readCloseReception({
      closingDocumentCode: 'REC-1',
      documentExternalCode: null,
      documentType: '',
      company: null,
      lines: [{ externalCode: 'P1', quantity: '2.5', lotCode: '', serialNumbers: null }],
      unknown: { deep: [1] },
    });
    expect(reading.problems).toEqual([]);
    expect(reading.value).toEqual({
      closingDocumentCode: 'REC-1',
      documentNumber: [],
      documentExternalCode: null,
      documentType: null,
      company: null,
      observations: null,
      lines: [{ externalCode: 'P1', quantity: 2.5, lotCode: null, expirationDate: null, serialNumbers: [] }],
      originCode: null,
      receptionDate: null,
    });
  });

  it('names every problem by its path, keeps a usable closingDocumentCode, and gives no value', () => {
    const reading = readCloseShipping({
      closingDocumentCode: 'EXP-1',
      lines: [{ quantity: 1 }, 'x'],
      packingList: [{ weight: 'heavy', lines: [{ externalCode: 'P', quantity: null }] }],
      carrier: 7,
    });
    expect(reading.value).toBeUndefined();
    expect(reading.closingDocumentCode).toBe('EXP-1');
    expect(reading.problems.map((p) => p.path)).toEqual([
      'lines[0].externalCode',
      'lines[1]',
      'carrier',
      'packingList[0].weight',
      'packingList[0].lines[0].quantity',
    ]);
  });

  it('a stock regularization needs a product, a quantity and a time with offset; lot and warehouse may be absent', () => {
    expect(
      readStockRegularization({ productExternalCode: 'P', quantity: -1, movementTime: '2026-01-01T10:00+02' }).value,
    ).toEqual({
      productExternalCode: 'P',
      lotCode: null,
      quantity: -1,
      movementTime: '2026-01-01T08:00:00.000Z',
      warehouse: null,
    });
    expect(readStockRegularization({}).problems.map((p) => p.path)).toEqual([
      'productExternalCode',
      'quantity',
      'movementTime',
    ]);
    expect(readStockRegularization([]).problems).toEqual([
      { path: '(body)', message: 'expected a JSON object, got an array' },
    ]);
  });

  it('property: unknown members at any level never change the reading', () => {
    const base = {
      closingDocumentCode: 'R',
      lines: [{ externalCode: 'A', quantity: 1 }],
      packingList: [{ packingCode: 'K', lines: [{ externalCode: 'A', quantity: 1 }] }],
    };
    const expected = readCloseShipping(base).value;
    fc.assert(
      fc.property(
        fc.dictionary(
          fc
            .string()
            .filter(
              (k) =>
                !(k in base) &&
                ![
                  'lines',
                  'packingList',
                  'externalCode',
                  'quantity',
                  'packingCode',
                  'weight',
                  'lotCode',
                  'expirationDate',
                  'serialNumbers',
                  '__proto__',
                  'documentNumber',
                  'documentExternalCode',
                  'documentType',
                  'company',
                  'observations',
                  'destinationCode',
                  'deliveryPointExternalCode',
                  'carrier',
                  'deliveryPlace',
                ].includes(k),
            ),
          fc.jsonValue(),
        ),
        (extra) => {
          const payload = {
            ...extra,
            ...base,
            lines: [{ ...extra, ...base.lines[0] }],
            packingList: [
              { ...extra, ...base.packingList[0], lines: [{ ...extra, ...base.packingList[0]!.lines[0] }] },
            ],
          };
          expect(readCloseShipping(payload).value).toEqual(expected);
        },
      ),
    );
  });
});
