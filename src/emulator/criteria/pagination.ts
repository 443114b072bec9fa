import { DEFAULT_PAGE_SIZE, type Pageable, parseSort } from '../../wms/index.js';
import { wmsError } from '../errors.js';

/** Spring Data's default `max-page-size`: a larger `size` is lowered to it, as Spring does. */
export const MAX_PAGE_SIZE = 2000;

export interface PageRequest {
  page: number;
  size: number;
  orderBy: string;
}

/** Page, size and ORDER BY from a pageable; the id always ends the order so pages are stable. */
export function pageRequest(
  pageable: Pageable,
  sortable: Readonly<Record<string, string>>,
  entityName: string,
  idColumn: string,
): PageRequest {
  const orders: string[] = [];
  let hasId = false;
  for (const entry of pageable.sort ?? []) {
    for (const { property, direction } of parseSort(entry) ?? []) {
      const column = sortable[property];
      if (!column) {
        throw wmsError.badRequest(
          entityName,
          'sortinvalid',
          `Cannot sort by "${property}"; sortable: ${Object.keys(sortable).join(', ')}`,
        );
      }
      hasId ||= column === idColumn;
      orders.push(`${column} ${direction === 'desc' ? 'DESC' : 'ASC'}`);
    }
  }
  if (!hasId) orders.push(`${idColumn} ASC`);
  return {
    page: pageable.page ?? 0,
    size: Math.min(pageable.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    orderBy: orders.join(', '),
  };
}

/**
 * `X-Total-Count` and the RFC 8288 `Link` header exactly as JHipster's PaginationUtil writes them:
 * next (if any), prev (if any), last, first; each the request URL with `page` and `size` replaced
 * (moved to the end), commas and semicolons percent-encoded.
 */
export function paginationHeaders(
  requestUrl: string,
  page: number,
  size: number,
  total: number,
): Record<string, string> {
  const totalPages = Math.ceil(total / size);
  const url = new URL(requestUrl);
  const kept = url.search
    .replace(/^\?/, '')
    .split('&')
    .filter(
      (pair) =>
        pair !== '' && !['page', 'size'].includes(decodeURIComponent(pair.split('=', 1)[0]!.replace(/\+/g, ' '))),
    );
  const link = (n: number, rel: string) => {
    const query = [...kept, `page=${n}`, `size=${size}`].join('&');
    const uri = `${url.origin}${url.pathname}?${query}`.replace(/,/g, '%2C').replace(/;/g, '%3B');
    return `<${uri}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page < totalPages - 1) links.push(link(page + 1, 'next'));
  if (page > 0) links.push(link(page - 1, 'prev'));
  links.push(link(totalPages > 0 ? totalPages - 1 : 0, 'last'), link(0, 'first'));
  return { 'X-Total-Count': String(total), Link: links.join(',') };
}
