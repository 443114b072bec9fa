import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BARCODE_TYPES,
  type Criteria,
  CriteriaEncodingError,
  type CriteriaFields,
  DELIVERY_POINT_CRITERIA_FIELDS,
  DOCUMENT_CRITERIA_FIELDS,
  DOCUMENT_STATUSES,
  decodeCriteriaQuery,
  ENTITY_TYPES,
  encodeCriteriaQuery,
  FILTER_OPERATORS,
  type FilterKind,
  type Pageable,
  PRODUCT_CRITERIA_FIELDS,
  parseSort,
} from '../../src/wms/index.js';

const isoDay = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const instant = fc
  .tuple(
    fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true }),
    fc.constantFrom('Z', '+02:00', '-05:30'),
  )
  .map(([d, offset]) => d.toISOString().replace('Z', offset));
const category = fc.record(
  {
    id: fc.integer({ min: 1, max: 1e9 }),
    description: fc.string({ unit: 'grapheme', maxLength: 8 }),
    active: fc.boolean(),
  },
  { requiredKeys: ['description'] },
);

const VALUES: Record<FilterKind, fc.Arbitrary<unknown>> = {
  string: fc.string({ unit: 'grapheme', maxLength: 10 }),
  boolean: fc.boolean(),
  long: fc.maxSafeInteger(),
  integer: fc.integer(),
  localDate: isoDay,
  instant,
  typeOfBarcode: fc.constantFrom(...BARCODE_TYPES),
  receptionNoteStatus: fc.constantFrom(...DOCUMENT_STATUSES),
  entityType: fc.constantFrom(...ENTITY_TYPES),
  deliveryPointCategory: category,
};

function filterArb(kind: FilterKind): fc.Arbitrary<Record<string, unknown>> {
  const value = VALUES[kind];
  const members = Object.fromEntries(
    FILTER_OPERATORS[kind].map((op) => [
      op,
      op === 'specified' ? fc.boolean() : op === 'in' || op === 'notIn' ? fc.array(value, { maxLength: 4 }) : value,
    ]),
  );
  return fc.record(members, { requiredKeys: [] }).filter((f) => Object.keys(f).length > 0);
}

function criteriaArb<F extends CriteriaFields>(fields: F): fc.Arbitrary<Criteria<F>> {
  const members = Object.fromEntries(Object.entries(fields).map(([name, kind]) => [name, filterArb(kind)]));
  return fc.record(members, { requiredKeys: [] }) as fc.Arbitrary<Criteria<F>>;
}

const pageableArb: fc.Arbitrary<Pageable> = fc.record(
  {
    page: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    size: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    sort: fc.array(
      fc
        .tuple(fc.stringMatching(/^[a-z][A-Za-z0-9]{0,8}$/), fc.constantFrom('asc', 'desc'))
        .map(([p, d]) => `${p},${d}`),
      { minLength: 1, maxLength: 3 },
    ),
  },
  { requiredKeys: [] },
);

/** Spring splits one list parameter on commas and trims: such a single value has no encoding. */
const joinable = (text: string) => text.length > 0 && !text.includes(',') && text.trim() === text;
function hasUnencodableList(criteria: Criteria): boolean {
  return Object.values(criteria).some((filter) =>
    ['in', 'notIn'].some((op) => {
      const list = (filter as Record<string, unknown[] | undefined>)[op];
      return list?.length === 1 && typeof list[0] === 'string' && !joinable(list[0]);
    }),
  );
}

describe('criteria query string: round trip (property)', () => {
  const cases: [string, CriteriaFields][] = [
    ['product', PRODUCT_CRITERIA_FIELDS],
    ['document', DOCUMENT_CRITERIA_FIELDS],
    ['delivery point', DELIVERY_POINT_CRITERIA_FIELDS],
  ];
  for (const [name, fields] of cases) {
    it(`decode(encode(x)) = x for any ${name} criteria and pageable, or encode refuses an unsendable single list value`, () => {
      fc.assert(
        fc.property(criteriaArb(fields), pageableArb, (criteria, pageable) => {
          let query: string;
          try {
            query = encodeCriteriaQuery(fields, criteria, pageable).toString();
          } catch (err) {
            if (!(err instanceof CriteriaEncodingError)) throw err;
            expect(hasUnencodableList(criteria)).toBe(true);
            return;
          }
          expect(hasUnencodableList(criteria)).toBe(false);
          expect(decodeCriteriaQuery(fields, query)).toEqual({ ok: true, criteria, pageable });
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('criteria query string: Spring binding conventions', () => {
  const P = PRODUCT_CRITERIA_FIELDS;

  it('reads field.operator=value pairs, lists comma-separated and trimmed, pageable members', () => {
    const decoded = decodeCriteriaQuery(
      P,
      'sku.contains=AB&active.equals=true&id.in=1,%202&description.specified=false&page=2&size=50&sort=sku,desc&sort=id',
    );
    expect(decoded).toEqual({
      ok: true,
      criteria: {
        sku: { contains: 'AB' },
        active: { equals: true },
        id: { in: [1, 2] },
        description: { specified: false },
      },
      pageable: { page: 2, size: 50, sort: ['sku,desc', 'id'] },
    });
  });

  it('takes repeated list parameters whole, commas included', () => {
    expect(decodeCriteriaQuery(P, 'sku.in=a,b&sku.in=c')).toEqual({
      ok: true,
      criteria: { sku: { in: ['a,b', 'c'] } },
      pageable: {},
    });
    expect(encodeCriteriaQuery(P, { sku: { in: ['a,b', 'c'] } }).getAll('sku.in')).toEqual(['a,b', 'c']);
    expect(encodeCriteriaQuery(P, { sku: { in: ['a', 'b'] } }).toString()).toBe('sku.in=a%2Cb');
  });

  it('reads Spring boolean words and an empty list', () => {
    expect(decodeCriteriaQuery(P, 'withLots.equals=YES&active.in=')).toEqual({
      ok: true,
      criteria: { withLots: { equals: true }, active: { in: [] } },
      pageable: {},
    });
  });

  it('reads delivery point category objects, single and indexed', () => {
    const q =
      'categories.equals.id=3&categories.equals.description=Cold&categories.notIn[1].description=B&categories.notIn[0].description=A&categories.notIn[0].active=false';
    expect(decodeCriteriaQuery(DELIVERY_POINT_CRITERIA_FIELDS, q)).toEqual({
      ok: true,
      criteria: {
        categories: {
          equals: { id: 3, description: 'Cold' },
          notIn: [{ description: 'A', active: false }, { description: 'B' }],
        },
      },
      pageable: {},
    });
  });

  it('writes sort entries and pageable after the criteria', () => {
    const q = encodeCriteriaQuery(P, { id: { greaterThan: 10 } }, { page: 1, size: 20, sort: ['sku,asc', 'id,desc'] });
    expect(q.toString()).toBe('id.greaterThan=10&page=1&size=20&sort=sku%2Casc&sort=id%2Cdesc');
  });

  it('parses sort entries the way Spring does', () => {
    expect(parseSort('sku')).toEqual([{ property: 'sku', direction: 'asc' }]);
    expect(parseSort('a,b,DESC')).toEqual([
      { property: 'a', direction: 'desc' },
      { property: 'b', direction: 'desc' },
    ]);
    expect(parseSort(',desc')).toBeUndefined();
    expect(parseSort('drop table')).toBeUndefined();
  });
});

describe('criteria query string: every problem is reported', () => {
  const P = PRODUCT_CRITERIA_FIELDS;
  const issues = (q: string) => {
    const decoded = decodeCriteriaQuery(P, q);
    return decoded.ok ? [] : decoded.issues;
  };

  it.each([
    ['nope.equals=1', 'nope.equals', 'unknown criteria field "nope"'],
    ['sku=1', 'sku', 'unknown criteria field "sku"'],
    ['sku.greaterThan=1', 'sku.greaterThan', 'operator "greaterThan" is not offered'],
    ['active.contains=x', 'active.contains', 'operator "contains" is not offered'],
    ['id.equals=1.5', 'id.equals', 'expected an integer'],
    ['id.equals=99999999999999999999', 'id.equals', 'out of range'],
    ['active.equals=maybe', 'active.equals', 'expected true or false'],
    ['expirationDate.lessThan=2023-02-29', 'expirationDate.lessThan', 'expected a date'],
    ['typeOfBarcode.equals=EAN', 'typeOfBarcode.equals', 'expected a barcode type'],
    ['id.in=1,x', 'id.in', 'expected an integer'],
    ['sku.equals=a&sku.equals=b', 'sku.equals', 'given more than once'],
    ['sku.equals.x=a', 'sku.equals.x', 'unknown criteria parameter'],
    ['page=-1', 'page', 'page must be an integer of at least 0'],
    ['size=0', 'size', 'size must be an integer of at least 1'],
    ['page=1&page=2', 'page', 'given more than once'],
    ['sort=,asc', 'sort', 'expected property[,asc|desc]'],
  ])('%s → issue on %s', (query, param, message) => {
    const found = issues(query);
    expect(found).toHaveLength(1);
    expect(found[0]!.param).toBe(param);
    expect(found[0]!.message).toContain(message);
  });

  it('reports all issues at once', () => {
    expect(issues('nope.equals=1&id.equals=x&size=0').map((i) => i.param)).toEqual([
      'nope.equals',
      'id.equals',
      'size',
    ]);
  });

  it('refuses a document status or entity type outside the spec enums', () => {
    const doc = decodeCriteriaQuery(DOCUMENT_CRITERIA_FIELDS, 'status.in=CREATED,SHIPPED');
    expect(doc.ok).toBe(false);
    const dp = decodeCriteriaQuery(DELIVERY_POINT_CRITERIA_FIELDS, 'types.equals=CARRIER');
    expect(dp.ok).toBe(false);
  });

  it('refuses a category without description or with a mismatched index form', () => {
    expect(decodeCriteriaQuery(DELIVERY_POINT_CRITERIA_FIELDS, 'categories.equals.id=1').ok).toBe(false);
    expect(decodeCriteriaQuery(DELIVERY_POINT_CRITERIA_FIELDS, 'categories.equals[0].description=x').ok).toBe(false);
    expect(decodeCriteriaQuery(DELIVERY_POINT_CRITERIA_FIELDS, 'categories.in.description=x').ok).toBe(false);
  });

  it('encode refuses unknown fields and operators', () => {
    expect(() => encodeCriteriaQuery(P, { nope: { equals: 'x' } } as never)).toThrow(CriteriaEncodingError);
    expect(() => encodeCriteriaQuery(P, { sku: { greaterThan: 'x' } } as never)).toThrow(CriteriaEncodingError);
  });
});
