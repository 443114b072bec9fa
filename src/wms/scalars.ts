import { z } from 'zod';

/** `YYYY-MM-DD`, checked as a real calendar date (2023-02-29 is refused). */
export const isoDateSchema = z.iso.date({ error: 'expected a date YYYY-MM-DD' });

/** ISO 8601 date-time with `Z` or an offset (`+02:00`); a local time without offset is refused. */
export const isoDateTimeSchema = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time with offset' });

export const int32Schema = z.int32();

/** int64 on the wire; JSON numbers are safe only up to 2^53, which is what we accept. */
export const int64Schema = z.int().meta({ format: 'int64' });

/** The spec's identifiers: a required string must also be non-empty to be usable as a key. */
export const codeSchema = z.string().min(1, 'must not be empty');

/**
 * The spec's "unique items" arrays (Java `Set`s). Two members that are equal field by field are
 * refused rather than silently merged, so a client learns about the duplicate.
 */
export function uniqueArray<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .refine((items) => new Set(items.map(canonical)).size === items.length, { message: 'items must be unique' })
    .meta({ uniqueItems: true });
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
