/** Node's codes for a peer that cannot be reached or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOSPC',
]);

/**
 * Postgres SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 57P01-03
 * (shutting down, crashed, not accepting connections yet), 53100 (disk full: "could not extend
 * file"), 53300 (too many connections).
 */
const PG_UNAVAILABLE = /^(08...|57P0[123]|53[13]00)$/;

/** What pg and our SQLite adapter say when the database went away (pg reports some without a code). */
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'The database connection is not open',
];

/** SQLite result codes of a database that is locked past busy_timeout or cannot be read or written. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY)/;

/**
 * True when `err` (or an error it wraps: drizzle wraps driver errors as `cause`) says the store
 * cannot be reached or used right now, as opposed to a query that is wrong: the HTTP layer answers
 * such a failure 503 with Retry-After, since the same request can succeed once the database is back.
 */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code))
    )
      return true;
    const message = e instanceof Error ? e.message : '';
    if (MESSAGES.some((m) => message.includes(m))) return true;
  }
  return isStorageFull(err);
}

/** SQLite's, Postgres's and the OS's ways of saying the disk is full. */
const FULL_CODES = /^(SQLITE_FULL|ENOSPC|53100)$/;
const FULL_MESSAGES = ['database or disk is full', 'could not extend file', 'No space left on device'];

/**
 * True when `err` (or an error it wraps) says the database's disk is full: a kind of
 * `isStoreUnavailable` that lasts until space is freed, which the storage state (`space.ts`)
 * notices and reports.
 */
export function isStorageFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.test(code)) return true;
    const message = e instanceof Error ? e.message : '';
    if (FULL_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
