import type { Child } from 'hono/jsx';

export interface Column<T> {
  header: string;
  cell: (row: T) => Child;
  class?: string;
}

/**
 * A list of rows as a table: the columns say what each cell shows. `rowId` marks rows (data-id)
 * so that a refreshed list can highlight the new ones.
 */
export function DataTable<T>(props: {
  columns: Column<T>[];
  rows: readonly T[];
  empty: string;
  rowId?: (row: T) => number | string;
  /** What the table lists, for screen readers (its box is a focusable region: it may scroll). */
  label?: string;
}) {
  return (
    <section class="table-wrap" aria-label={props.label ?? 'Table'} tabindex={0}>
      <table class="data">
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th class={c.class}>{c.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 ? (
            <tr>
              <td class="empty" colspan={props.columns.length}>
                {props.empty}
              </td>
            </tr>
          ) : (
            props.rows.map((row) => (
              <tr data-id={props.rowId ? String(props.rowId(row)) : undefined}>
                {props.columns.map((c) => (
                  <td class={c.class}>{c.cell(row)}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}

/** Keyset paging: back to the newest page, or on to the next (older) one. */
export function Pager(props: { newestHref?: string | undefined; nextHref?: string | undefined; summary?: string }) {
  if (!props.newestHref && !props.nextHref && !props.summary) return null;
  return (
    <div class="pager">
      <span>{props.summary}</span>
      <span>
        {props.newestHref ? (
          <a class="btn small" href={props.newestHref}>
            ← Newest
          </a>
        ) : null}{' '}
        {props.nextHref ? (
          <a class="btn small" href={props.nextHref}>
            Older →
          </a>
        ) : null}
      </span>
    </div>
  );
}

/** A URL with these query parameters (undefined ones left out). */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
