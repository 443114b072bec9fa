import { formatPath } from './zod-issues.js';

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * Where a parsed JSON value holds U+0000 (in a string or a key), as `lines[0].description`;
 * undefined when nowhere. Postgres text and jsonb cannot store it (SQLite can), so such input is
 * refused on both backends rather than stored on one and a 500 on the other.
 */
export function nulPath(value: unknown, path: PropertyKey[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? formatPath(path) : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...path, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key.includes('\u0000')) return formatPath([...path, key.replaceAll('\u0000', '\\u0000')]);
      const found = nulPath(member, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** In JSON text U+0000 can only be written as this escape (a raw one is not valid JSON). */
export function mayHoldNul(jsonText: string): boolean {
  return jsonText.includes('\\u0000');
}
