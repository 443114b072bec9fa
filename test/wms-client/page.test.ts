import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasNextPage, iteratePages, type Page, parseLinkHeader, parseTotalCount } from '../../src/wms-client/index.js';

const BASE = 'http://wms.test/';

describe('Link header (RFC 8288, as JHipster writes it)', () => {
  it('reads next, prev, last and first, resolving relative URLs', () => {
    const header =
      '</api/external/v1/product?page=2&size=20>; rel="next",</api/external/v1/product?page=9&size=20>; rel="last",' +
      '</api/external/v1/product?page=0&size=20>; rel="prev",</api/external/v1/product?page=0&size=20>; rel="first"';
    expect(parseLinkHeader(header, BASE)).toEqual({
      next: 'http://wms.test/api/external/v1/product?page=2&size=20',
      last: 'http://wms.test/api/external/v1/product?page=9&size=20',
      prev: 'http://wms.test/api/external/v1/product?page=0&size=20',
      first: 'http://wms.test/api/external/v1/product?page=0&size=20',
    });
  });

  it('keeps commas inside URLs (sort=sku,desc) and reads unquoted and multi-valued rel', () => {
    const header = '<http://x/p?sort=sku,desc&page=1>; rel=next, <http://x/p?sort=sku,desc&page=0>; rel="first prev"';
    expect(parseLinkHeader(header, BASE)).toEqual({
      next: 'http://x/p?sort=sku,desc&page=1',
      first: 'http://x/p?sort=sku,desc&page=0',
      prev: 'http://x/p?sort=sku,desc&page=0',
    });
  });

  it('ignores an absent or broken header instead of throwing', () => {
    expect(parseLinkHeader(undefined, BASE)).toEqual({});
    expect(parseLinkHeader('garbage, ; rel=', BASE)).toEqual({});
  });

  it('round-trips any set of relations and page numbers', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom('next', 'prev', 'first', 'last'), { minLength: 1 }),
        fc.array(fc.nat(1e6), { minLength: 4, maxLength: 4 }),
        (rels, pages) => {
          const header = rels
            .map((r, i) => `</api/external/v1/document?page=${pages[i]}&size=5&sort=id,asc>; rel="${r}"`)
            .join(',');
          const parsed = parseLinkHeader(header, BASE);
          expect(Object.keys(parsed).sort()).toEqual([...rels].sort());
          for (const [i, r] of rels.entries())
            expect(new URL(parsed[r]!).searchParams.get('page')).toBe(String(pages[i]));
        },
      ),
    );
  });

  it('reads X-Total-Count only when it is a whole number', () => {
    expect(parseTotalCount('42')).toBe(42);
    expect(parseTotalCount(' 7 ')).toBe(7);
    expect(parseTotalCount('-1')).toBeUndefined();
    expect(parseTotalCount('1e3')).toBeUndefined();
    expect(parseTotalCount(null)).toBeUndefined();
  });
});

describe('next page', () => {
  const page = (over: Partial<Page<number>>) => ({
    items: [1, 2],
    total: undefined,
    page: 0,
    size: 2,
    links: {},
    ...over,
  });

  it('follows the next link when links are sent, and stops without one', () => {
    expect(hasNextPage(page({ links: { next: 'x' } }))).toBe(true);
    expect(hasNextPage(page({ links: { last: 'x' }, total: 100 }))).toBe(false);
  });

  it('falls back to the total, then to a full page', () => {
    expect(hasNextPage(page({ total: 5, page: 1 }))).toBe(true);
    expect(hasNextPage(page({ total: 4, page: 1 }))).toBe(false);
    expect(hasNextPage(page({}))).toBe(true);
    expect(hasNextPage(page({ items: [1] }))).toBe(false);
  });

  it('iterates every item of every page, asking page after page', async () => {
    const all = Array.from({ length: 47 }, (_, i) => i);
    const asked: number[] = [];
    const fetchPage = async ({ page = 0, size = 10 }: { page?: number; size?: number }) => {
      asked.push(page);
      const items = all.slice(page * size, page * size + size);
      const p = { items, total: all.length, page, size, links: {} };
      return { ...p, hasNext: hasNextPage(p) };
    };
    const seen: number[] = [];
    for await (const n of iteratePages(fetchPage, { size: 10 })) seen.push(n);
    expect(seen).toEqual(all);
    expect(asked).toEqual([0, 1, 2, 3, 4]);
  });
});
