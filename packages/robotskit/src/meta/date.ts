/**
 * `unavailable_after` dates. Google takes "a widely adopted format, including but not limited to RFC 822, RFC 850,
 * and ISO 8601" and ignores the rule when the date is not valid
 * (https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag#unavailable_after). Parsed here by
 * hand, strictly: `Date.parse` accepts different things in different engines.
 *
 * Accepted:
 * - ISO 8601: `2026-09-21`, `2026-09-21T15:00`, `2026-09-21T15:00:00Z`, `2026-09-21 15:00:00.5+02:00`, `…+0200`;
 * - RFC 822 / RFC 1123 / RFC 2822: `[Wed, ]25 Jun 2010 15:00[:00] PST`, two- or four-digit years;
 * - RFC 850: `Friday, 25-Jun-10 15:00:00 GMT` (also without the weekday, or with a four-digit year).
 * Zones: `Z`, `UT`, `UTC`, `GMT`, the US zones of RFC 822 (`EST`, `EDT`, `CST`, `CDT`, `MST`, `MDT`, `PST`, `PDT`),
 * and numeric offsets. A date without a zone is read as UTC; a date without a time as midnight. Two-digit years are
 * 1970–2069. A weekday that does not match the date is not an error (Google does not say it checks it).
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ZONES: Record<string, number> = {
  z: 0,
  ut: 0,
  utc: 0,
  gmt: 0,
  est: -5,
  edt: -4,
  cst: -6,
  cdt: -5,
  mst: -7,
  mdt: -6,
  pst: -8,
  pdt: -7,
};
const WEEKDAY = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(z|[+-]\d{2}:?\d{2}|utc|gmt)?$/i;
const RFC822 = new RegExp(
  `^(?:${WEEKDAY},?\\s*)?(\\d{1,2})[\\s-]+([a-z]{3})[a-z]*[\\s-]+(\\d{2}|\\d{4})(?:\\s+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?)?(?:\\s*([a-z]{1,3}|[+-]\\d{4}|[+-]\\d{2}:\\d{2}))?$`,
  'i',
);

/** Whether `text` is only a weekday name (`Friday`, `Wed`): the part before the comma of an RFC 822/850 date. */
export function isWeekday(text: string): boolean {
  return new RegExp(`^${WEEKDAY}$`, 'i').test(text.trim());
}

/** Offset in minutes of a zone (`PST`, `+0200`, `-05:30`), or null when unknown. */
function zoneOffset(zone: string | undefined): number | null {
  if (zone === undefined) return 0;
  const lower = zone.toLowerCase();
  if (lower in ZONES) return ZONES[lower]! * 60;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (m === null) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (Number(m[2]) > 23 || Number(m[3]) > 59) return null;
  return m[1] === '-' ? -minutes : minutes;
}

/** Milliseconds since the epoch for the fields, or null when they are not a real date and time. */
function toTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  offsetMinutes: number,
): number | null {
  if (month < 0 || month > 11 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const probe = new Date(Date.UTC(year, month, day));
  if (probe.getUTCMonth() !== month || probe.getUTCDate() !== day) return null;
  // A leap second is read as the last second of its minute.
  return Date.UTC(year, month, day, hour, minute, Math.min(second, 59)) - offsetMinutes * 60_000;
}

/**
 * The time an `unavailable_after` value names, in milliseconds since the epoch, or null when it is not a date in an
 * accepted format.
 * @example parseUnavailableAfter('25 Jun 2010 15:00:00 PST') === Date.UTC(2010, 5, 25, 23)
 */
export function parseUnavailableAfter(text: string): number | null {
  const value = text.trim();
  const iso = ISO.exec(value);
  if (iso !== null) {
    const offset = zoneOffset(iso[7]);
    if (offset === null) return null;
    return toTime(
      Number(iso[1]),
      Number(iso[2]) - 1,
      Number(iso[3]),
      Number(iso[4] ?? 0),
      Number(iso[5] ?? 0),
      Number(iso[6] ?? 0),
      offset,
    );
  }
  const rfc = RFC822.exec(value);
  if (rfc !== null) {
    const month = MONTHS.indexOf(rfc[2]!.toLowerCase());
    const offset = zoneOffset(rfc[7]);
    if (month < 0 || offset === null) return null;
    let year = Number(rfc[3]);
    if (rfc[3]!.length === 2) year += year < 70 ? 2000 : 1900;
    return toTime(year, month, Number(rfc[1]), Number(rfc[4] ?? 0), Number(rfc[5] ?? 0), Number(rfc[6] ?? 0), offset);
  }
  return null;
}
