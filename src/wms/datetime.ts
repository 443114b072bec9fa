/*
 * The spec's `date` and `date-time` as a real WMS may write them, read into one canonical form.
 * Every rule about how a date or a time may be written lives here.
 *
 * - A date: `YYYY-MM-DD`, or any date-time below (a Java `LocalDate` serialised as a
 *   `ZonedDateTime`, say). The date part is kept as written: it is the warehouse's calendar day,
 *   and converting `2026-11-20T23:30:00-05:00` to UTC would make it the 21st.
 * - A date-time: `YYYY-MM-DDThh:mm`, seconds optional, a fraction of any length (read to the
 *   millisecond, extra digits truncated: Java writes micro- and nanoseconds), then `Z`, `±hh:mm`,
 *   `±hhmm` or `±hh`. `t`/`z` in lower case and a space instead of `T` (RFC 3339) are accepted too.
 *   A time without offset names no instant and is refused. Canonical form: UTC with milliseconds,
 *   `2026-11-22T15:41:07.000Z`.
 */

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  if (m === 2 && d === 29) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= DAYS[m - 1]!;
}

/** `YYYY-MM-DD` read by hand: the common case, on every line of every webhook, without a regex match. */
function plainDate(text: string): boolean | undefined {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  let y = 0,
    m = 0,
    d = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return undefined;
    if (i < 4) y = y * 10 + c;
    else if (i < 7) m = m * 10 + c;
    else d = d * 10 + c;
  }
  return validDay(y, m, d);
}

/** The canonical instant of a date-time as written, or undefined when it is not one. */
export function readDateTime(text: string): string | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, ys, mos, ds, hs, mis, ss, frac, zulu, sign, ohs, oms] = m;
  const y = Number(ys),
    mo = Number(mos),
    d = Number(ds),
    h = Number(hs),
    mi = Number(mis),
    s = ss === undefined ? 0 : Number(ss);
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 59) return undefined;
  let offsetMinutes = 0;
  if (!zulu) {
    const oh = Number(ohs),
      om = oms === undefined ? 0 : Number(oms);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (sign === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMinutes * 60_000;
  // Date.UTC maps years 0–99 to 1900–1999; such dates are not a warehouse's.
  if (y < 1000) return undefined;
  return new Date(utc).toISOString();
}

/** The canonical `YYYY-MM-DD` of a date (or of a date-time's date part, as written), or undefined. */
export function readDate(text: string): string | undefined {
  const plain = plainDate(text);
  if (plain !== undefined) return plain ? text : undefined;
  return readDateTime(text) === undefined ? undefined : text.slice(0, 10);
}
