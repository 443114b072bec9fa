/**
 * How one criteria member maps onto the emulator's tables.
 * - `expr`: an SQL expression of the listed row (a column, or a computed 0/1), with its own
 *   parameters if it has placeholders;
 * - `any`: a search over several columns: a positive operator matches when one of them does, a
 *   negative one (notEquals, notIn, doesNotContain, specified=false) when none does;
 * - `child`: a member of child rows (JHipster joins): matches when some child row matches;
 *   `specified=false` when no child has a value. Written as `id IN (SELECT key FROM …)` so
 *   SQLite evaluates the child condition once, through the child's indexes;
 * - `null`: data the emulator does not hold (warehouse ids, labels…): behaves like a NULL
 *   column, so only `specified=false` (and an empty `notIn`) matches.
 * `expr` and `any` may name a trigram full-text index over the same columns (`text`), which
 * `contains` uses when the searched value is selective (see where.ts).
 */
export interface TextIndex {
  /** The FTS5 trigram table, whose rowid is the listed row's id. */
  table: string;
  columns: readonly string[];
  /** The listed row's id column, e.g. `p.id`. */
  rowId: string;
}

export type FieldSql =
  | { type: 'expr'; sql: string; params?: readonly unknown[]; text?: TextIndex }
  | { type: 'any'; sql: readonly string[]; text?: TextIndex }
  | { type: 'child'; parentKey: string; from: string; childKey: string; sql: string }
  | { type: 'null' };

export const expr = (sql: string, params?: readonly unknown[]): FieldSql => ({
  type: 'expr',
  sql,
  ...(params ? { params } : {}),
});
export const anyOf = (...sql: string[]): FieldSql => ({ type: 'any', sql });
export const child = (parentKey: string, from: string, childKey: string, sql: string): FieldSql => ({
  type: 'child',
  parentKey,
  from,
  childKey,
  sql,
});
export const absent: FieldSql = { type: 'null' };

/** The same member, searchable through a trigram index for `contains`. */
export function withText(field: FieldSql, text: TextIndex): FieldSql {
  return field.type === 'expr' || field.type === 'any' ? { ...field, text } : field;
}

/** Member name → SQL, for every member of one criteria type. */
export type CriteriaSql<F> = { readonly [K in keyof F]: FieldSql };
