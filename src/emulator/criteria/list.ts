import { type CriteriaFields, decodeCriteriaQuery, type Pageable } from '../../wms/index.js';
import type { TenantContext } from '../context.js';
import { wmsError } from '../errors.js';
import type { FieldSql } from './field-sql.js';
import { pageRequest, paginationHeaders } from './pagination.js';
import { criteriaWhere, type SelectiveMatch, TEXT_INDEX_MAX_CANDIDATES } from './where.js';

/** How one resource is listed: its table and alias, criteria members, sortable properties. */
export interface ListSpec {
  entityName: string;
  /** e.g. `products p`; the alias prefixes every column below. */
  from: string;
  alias: string;
  fields: CriteriaFields;
  mapping: Readonly<Record<string, FieldSql>>;
  sortable: Readonly<Record<string, string>>;
  /** A condition every listed row meets besides the tenant (e.g. products the API knows). */
  scope?: string;
}

export interface ListPage<Row> {
  rows: Row[];
  total: number;
  headers: Record<string, string>;
}

/**
 * A page of one tenant's rows matching the criteria in the request's query string, translated to
 * SQL (never filtered in JS) so the indexes do the work: one COUNT and one LIMIT/OFFSET query.
 */
export function listFromQuery<Row>(ctx: TenantContext, spec: ListSpec, requestUrl: string): ListPage<Row> {
  const decoded = decodeCriteriaQuery(spec.fields, new URL(requestUrl).searchParams);
  if (!decoded.ok) {
    throw wmsError.badRequest(
      spec.entityName,
      'criteriainvalid',
      `Invalid criteria or pageable: ${decoded.issues.map((i) => `${i.param}: ${i.message}`).join('; ')}`,
    );
  }
  return listPage<Row>(ctx, spec, decoded.criteria, decoded.pageable, requestUrl);
}

export function listPage<Row>(
  ctx: TenantContext,
  spec: ListSpec,
  criteria: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>,
  pageable: Pageable,
  requestUrl: string,
): ListPage<Row> {
  const { alias } = spec;
  const page = pageRequest(pageable, spec.sortable, spec.entityName, `${alias}.id`);
  const where = criteriaWhere(spec.fields, spec.mapping, criteria, selectiveMatch(ctx));
  const base = `FROM ${spec.from} WHERE ${alias}.tenant_id = ?${spec.scope ? ` AND ${spec.scope}` : ''} AND ${where.sql}`;
  const params = [ctx.tenant.id, ...where.params];
  const { n: total } = ctx.sql(`SELECT count(*) AS n ${base}`).get(...params) as { n: number };
  const offset = page.page * page.size;
  const rows =
    offset >= total
      ? []
      : (ctx
          .sql(`SELECT ${alias}.* ${base} ORDER BY ${page.orderBy} LIMIT ? OFFSET ?`)
          .all(...params, page.size, offset) as Row[]);
  return { rows, total, headers: paginationHeaders(requestUrl, page.page, page.size, total) };
}

/** True when the trigram index finds at most TEXT_INDEX_MAX_CANDIDATES rows (all tenants). */
function selectiveMatch(ctx: TenantContext): SelectiveMatch {
  return (text, match) => {
    const probe = ctx.sql(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${text.table} WHERE ${text.table} MATCH ? LIMIT ${TEXT_INDEX_MAX_CANDIDATES + 1})`,
    );
    return (probe.get(match) as { n: number }).n <= TEXT_INDEX_MAX_CANDIDATES;
  };
}
