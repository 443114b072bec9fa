import type { Pageable } from '../wms/index.js';

/** One page of a list endpoint: the JSON array body plus what `X-Total-Count` and `Link` say. */
export interface Page<T> {
  items: T[];
  /** `X-Total-Count`; undefined when the WMS did not send it. */
  total: number | undefined;
  /** The page asked for (0-based) and its size. */
  page: number;
  size: number;
  /** `Link` relations (next, prev, first, last) as absolute URLs. */
  links: Partial<Record<string, string>>;
  hasNext: boolean;
}

/**
 * RFC 8288 `Link` header → relation → URL. JHipster writes `<url>; rel="next",<url>; rel="last"`;
 * URLs may hold commas in their query string, so the header is split on `<…>` groups, not on commas.
 */
export function parseLinkHeader(header: string | null | undefined, base: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  const pattern = /<([^>]*)>\s*((?:;\s*[^;,<]+)*)/g;
  for (const match of header.matchAll(pattern)) {
    const target = match[1]!;
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const names = (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).filter(Boolean);
    let url: string;
    try {
      url = new URL(target, base).toString();
    } catch {
      continue;
    }
    for (const name of names) out[name.toLowerCase()] ??= url;
  }
  return out;
}

export function parseTotalCount(header: string | null | undefined): number | undefined {
  if (!header || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header);
}

/** Whether a page after this one exists: the `next` link when sent, else the total, else a full page. */
export function hasNextPage(p: {
  items: unknown[];
  total: number | undefined;
  page: number;
  size: number;
  links: Partial<Record<string, string>>;
}): boolean {
  if (p.links.next) return true;
  if (Object.keys(p.links).length > 0) return false;
  if (p.total !== undefined) return (p.page + 1) * p.size < p.total;
  return p.items.length >= p.size;
}

/**
 * Every item of every page, fetching page after page from `pageable.page` (0 by default) until the
 * WMS says there is no next one. Criteria stay the same on each request; only `page` moves.
 */
export async function* iteratePages<T>(
  fetchPage: (pageable: Pageable) => Promise<Page<T>>,
  pageable: Pageable = {},
): AsyncGenerator<T> {
  let page = pageable.page ?? 0;
  for (;;) {
    const result = await fetchPage({ ...pageable, page });
    yield* result.items;
    if (!result.hasNext || result.items.length === 0) return;
    page += 1;
  }
}
