import { readDate, readDateTime } from './datetime.js';

/*
 * The member-by-member rules of the tolerant reading (webhooks-tolerant.ts): how text, codes,
 * numbers, dates, instants and arrays may be written, and the problem named when they are not.
 */

export interface FieldProblem {
  path: string;
  message: string;
}

const EMPTY: readonly unknown[] = Object.freeze([]);
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
export type Obj = Record<string, unknown>;
export const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null || v === '';
export const typeName = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** A number, or a string holding a JSON number; undefined otherwise. The one place that says so. */
export function readNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMBER_TEXT.test(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A member's path, built only when there is a problem to name (the common case has none). */
export const at = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

export class Reader {
  readonly problems: FieldProblem[] = [];
  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }
  text(v: unknown, parent: string, key: string): string | null {
    if (typeof v === 'string') return v === '' ? null : v;
    if (v === undefined || v === null) return null;
    this.problem(at(parent, key), `expected a string, got ${typeName(v)}`);
    return null;
  }
  /** A code the payload cannot be applied without: `missing` says why it matters. */
  code(v: unknown, parent: string, key: string, missing: string): string {
    if (typeof v === 'string' && v.trim() !== '') return v;
    this.problem(
      at(parent, key),
      absent(v) || typeof v === 'string' ? missing : `expected a string, got ${typeName(v)}`,
    );
    return '';
  }
  number(v: unknown, parent: string, key: string, required: string | false): number | null {
    if (typeof v === 'number') return v;
    if (absent(v)) {
      if (required) this.problem(at(parent, key), required);
      return null;
    }
    const n = readNumber(v);
    if (n === undefined)
      this.problem(
        at(parent, key),
        `expected a number, got ${typeof v === 'string' ? JSON.stringify(v) : typeName(v)}`,
      );
    return n ?? null;
  }
  date(v: unknown, parent: string, key: string): string | null {
    if (absent(v)) return null;
    const d = typeof v === 'string' ? readDate(v) : undefined;
    if (d === undefined)
      this.problem(
        at(parent, key),
        `expected a date (YYYY-MM-DD or an ISO 8601 date-time), got ${typeof v === 'string' ? JSON.stringify(v) : typeName(v)}`,
      );
    return d ?? null;
  }
  dateTime(v: unknown, key: string, required: string): string {
    if (absent(v)) {
      this.problem(key, required);
      return '';
    }
    const t = typeof v === 'string' ? readDateTime(v) : undefined;
    if (t === undefined)
      this.problem(
        key,
        `expected an ISO 8601 date-time with offset (Z, ±hh:mm, ±hhmm or ±hh), got ${typeof v === 'string' ? JSON.stringify(v) : typeName(v)}`,
      );
    return t ?? '';
  }
  list(v: unknown, parent: string, key: string): readonly unknown[] {
    if (Array.isArray(v)) return v;
    if (!absent(v)) this.problem(at(parent, key), `expected an array, got ${typeName(v)}`);
    return EMPTY;
  }
  /** Strings of an array; null and "" elements say nothing and are left out. */
  texts(v: unknown, parent: string, key: string): string[] {
    const out: string[] = [];
    const items = this.list(v, parent, key);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (typeof item === 'string') {
        if (item !== '') out.push(item);
      } else if (item !== null && item !== undefined)
        this.problem(`${at(parent, key)}[${i}]`, `expected a string, got ${typeName(item)}`);
    }
    return out;
  }
  /** The object items of an array, each read by `read` with its path. */
  objects<T>(v: unknown, parent: string, key: string, what: string, read: (item: Obj, path: string) => T): T[] {
    const out: T[] = [];
    const items = this.list(v, parent, key);
    const base = at(parent, key);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (isObject(item)) out.push(read(item, `${base}[${i}]`));
      else this.problem(`${base}[${i}]`, `expected ${what} (an object), got ${typeName(item)}`);
    }
    return out;
  }
}
