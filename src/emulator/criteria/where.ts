import type { CriteriaFields, FilterKind } from '../../wms/index.js';
import type { FieldSql, TextIndex } from './field-sql.js';

export interface SqlPart {
  sql: string;
  params: unknown[];
}

/** Asks whether a full-text MATCH is selective enough to drive the query (see `textCondition`). */
export type SelectiveMatch = (text: TextIndex, match: string) => boolean;

const NEGATIVE = new Set(['notEquals', 'notIn', 'doesNotContain']);
const COMPARATORS: Record<string, string> = {
  equals: '=',
  notEquals: '<>',
  greaterThan: '>',
  lessThan: '<',
  greaterThanOrEqual: '>=',
  lessThanOrEqual: '<=',
};

/** Values as the tables store them: booleans 0/1, instants epoch milliseconds. */
function storedValue(kind: FilterKind, value: unknown): unknown {
  if (kind === 'boolean') return value ? 1 : 0;
  if (kind === 'instant') return Date.parse(value as string);
  return value;
}

/**
 * One operator on one SQL expression, with JHipster's semantics: `contains` is a LIKE '%v%'
 * (case-insensitive for ASCII letters; `%` and `_` in the value act as wildcards, as in JHipster).
 */
function condition(
  target: string,
  targetParams: readonly unknown[],
  op: string,
  value: unknown,
  kind: FilterKind,
): SqlPart {
  const params = [...targetParams];
  if (op === 'specified') return { sql: `${target} IS ${value ? 'NOT ' : ''}NULL`, params };
  if (op === 'in' || op === 'notIn') {
    const list = value as unknown[];
    if (list.length === 0) return { sql: op === 'in' ? '0' : '1', params: [] };
    params.push(...list.map((v) => storedValue(kind, v)));
    return { sql: `${target} ${op === 'in' ? 'IN' : 'NOT IN'} (${list.map(() => '?').join(', ')})`, params };
  }
  if (op === 'contains' || op === 'doesNotContain') {
    params.push(`%${value as string}%`);
    return { sql: `${target} ${op === 'contains' ? 'LIKE' : 'NOT LIKE'} ?`, params };
  }
  params.push(storedValue(kind, value));
  return { sql: `${target} ${COMPARATORS[op]} ?`, params };
}

function isNegative(op: string, value: unknown): boolean {
  return NEGATIVE.has(op) || (op === 'specified' && value === false);
}

/**
 * `contains` through the trigram index: substring matching, like LIKE, and far cheaper when few
 * rows match. Used only for printable-ASCII values of 3+ characters without LIKE wildcards (so
 * both paths fold case the same way), and only when the index finds few candidates: a value that
 * matches most rows is cheaper to scan for than to look up row by row.
 */
export const TEXT_INDEX_MAX_CANDIDATES = 1000;

function textCondition(
  text: TextIndex | undefined,
  value: string,
  selective: SelectiveMatch | undefined,
): SqlPart | undefined {
  if (!text || !selective || !/^[\x20-\x7e]{3,}$/.test(value) || /[%_]/.test(value)) return undefined;
  const match = `{${text.columns.join(' ')}} : "${value.replace(/"/g, '""')}"`;
  if (!selective(text, match)) return undefined;
  return { sql: `${text.rowId} IN (SELECT rowid FROM ${text.table} WHERE ${text.table} MATCH ?)`, params: [match] };
}

function fieldCondition(
  field: FieldSql,
  op: string,
  value: unknown,
  kind: FilterKind,
  selective?: SelectiveMatch,
): SqlPart {
  switch (field.type) {
    case 'expr':
      return (
        (op === 'contains' ? textCondition(field.text, value as string, selective) : undefined) ??
        condition(`(${field.sql})`, field.params ?? [], op, value, kind)
      );
    case 'any': {
      const viaText = op === 'contains' ? textCondition(field.text, value as string, selective) : undefined;
      if (viaText) return viaText;
      const parts = field.sql.map((sql) => condition(sql, [], op, value, kind));
      const joiner = isNegative(op, value) ? ' AND ' : ' OR ';
      return { sql: `(${parts.map((p) => p.sql).join(joiner)})`, params: parts.flatMap((p) => p.params) };
    }
    case 'child': {
      const head = `${field.parentKey} %s (SELECT ${field.childKey} FROM ${field.from} WHERE `;
      if (op === 'specified' && value === false) {
        return { sql: `${head.replace('%s', 'NOT IN')}${field.sql} IS NOT NULL)`, params: [] };
      }
      const inner = condition(field.sql, [], op, value, kind);
      return { sql: `${head.replace('%s', 'IN')}${inner.sql})`, params: inner.params };
    }
    case 'null': {
      const matches = (op === 'specified' && value === false) || (op === 'notIn' && (value as unknown[]).length === 0);
      return { sql: matches ? '1' : '0', params: [] };
    }
  }
}

/** Every filter member of every criteria field, AND-combined. */
export function criteriaWhere(
  fields: CriteriaFields,
  mapping: Readonly<Record<string, FieldSql>>,
  criteria: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>,
  selective?: SelectiveMatch,
): SqlPart {
  const parts: SqlPart[] = [];
  for (const [name, filter] of Object.entries(criteria)) {
    const kind = fields[name];
    const field = mapping[name];
    if (!filter || !kind || !field) continue;
    for (const [op, value] of Object.entries(filter)) {
      if (value !== undefined) parts.push(fieldCondition(field, op, value, kind, selective));
    }
  }
  return {
    sql: parts.length ? parts.map((p) => p.sql).join(' AND ') : '1',
    params: parts.flatMap((p) => p.params),
  };
}
