import { fmtTime } from './format.js';

/**
 * An instant in UTC, machine-readable for the browser, which adds the operator's local time beside
 * it (console.js): UTC stays the one form two operators in different zones can compare.
 */
export function Time(props: { iso: string | null | undefined }) {
  if (!props.iso) return <>—</>;
  return <time datetime={props.iso}>{fmtTime(props.iso)}</time>;
}
