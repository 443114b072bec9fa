import { z } from 'zod';
import { eventFilterShape, storeFilter } from '../../admin/routes/event-schemas.js';
import { MAX_PAGE } from '../../admin/routes/params.js';
import type { InboxFilter } from '../../store/types.js';
import { connectionBase } from '../nav.js';

/*
 * The inbound events pages' filters, shared by the list, its bulk retry and the overview's links:
 * the admin API's filters (GET /admin/v1/events) under the console's names, `from`/`to` also taking
 * what a datetime-local input sends (no offset: read as UTC, the console's time zone).
 */

const LOCAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/;
const instant = (schema: typeof eventFilterShape.receivedFrom) =>
  z
    .string()
    .transform((v) => (LOCAL_TIME.test(v) ? `${v.length === 16 ? `${v}:00` : v}Z` : v))
    .pipe(schema.unwrap());

export const eventsFilterSchema = z.object({
  kind: eventFilterShape.kind,
  status: eventFilterShape.status,
  code: eventFilterShape.code,
  from: instant(eventFilterShape.receivedFrom).optional(),
  to: instant(eventFilterShape.receivedTo).optional(),
});

export const eventsPageSchema = eventsFilterSchema.extend({
  before: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'expected the id of the last event shown')
    .optional(),
  limit: z.coerce
    .number({ error: `expected an integer from 1 to ${MAX_PAGE}` })
    .int(`expected an integer from 1 to ${MAX_PAGE}`)
    .min(1, `expected an integer from 1 to ${MAX_PAGE}`)
    .max(MAX_PAGE, `expected an integer from 1 to ${MAX_PAGE}`)
    .default(50),
});

export type EventsFilter = z.infer<typeof eventsFilterSchema>;
/** A filter as links build it (a kind or status read from a row, not yet checked). */
export type LooseFilter = { [K in keyof EventsFilter]?: string | undefined };

/** A form or URL's fields without the empty ones (an unset filter is sent as `name=`). */
export function nonEmpty(fields: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (typeof v === 'string' && v !== '') out[k] = v;
  return out;
}

/** The filter as the inbound room's functions take it (the admin routes' mapping), scoped to the connection. */
export function inboxFilter(connection: string, f: EventsFilter): InboxFilter {
  return storeFilter({
    connection,
    kind: f.kind,
    status: f.status,
    code: f.code,
    receivedFrom: f.from,
    receivedTo: f.to,
  });
}

/** The filter's query parameters, as the list's URL and its forms carry them. */
export function filterParams(f: LooseFilter): Record<string, string> {
  return nonEmpty(Object.fromEntries(FILTER_KEYS.map((k) => [k, f[k]])));
}

const FILTER_KEYS = ['kind', 'status', 'code', 'from', 'to'] as const;

/** The list's URL with this filter (built by hand: a page links every row's business code). */
export function eventsHref(
  connection: string,
  f: LooseFilter = {},
  extra: Record<string, string | number | undefined> = {},
): string {
  let query = '';
  for (const [name, value] of [...FILTER_KEYS.map((k) => [k, f[k]] as const), ...Object.entries(extra)]) {
    if (value !== undefined && value !== '') query += `${query ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
  }
  return `${connectionBase(connection)}/events${query}`;
}

export function eventHref(connection: string, id: number): string {
  return `${connectionBase(connection)}/events/${id}`;
}

/** An ISO instant as a datetime-local input shows it (UTC, seconds). */
export function localInput(iso: string | undefined): string | undefined {
  return iso ? iso.slice(0, 19) : undefined;
}
