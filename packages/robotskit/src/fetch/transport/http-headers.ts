/**
 * The header values that steer caching and retries: `Cache-Control` (RFC 9111 §5.2), `Retry-After` and HTTP-dates
 * (RFC 9110 §10.2.3, §5.6.7). Written out rather than left to `Date.parse`, whose reading of the obsolete date forms
 * differs between runtimes (asctime dates are read in local time by some).
 */

/** The `Cache-Control` directives robots.txt caching uses. */
export interface CacheDirectives {
  /** `max-age` in seconds; null when absent or not a number. */
  readonly maxAge: number | null;
  /** `no-cache` is present. */
  readonly noCache: boolean;
  /** `no-store` is present. */
  readonly noStore: boolean;
}

/** RFC 9111 §1.2.2: delta-seconds beyond 2^31 are read as 2^31. */
const MAX_DELTA_SECONDS = 2_147_483_648;

function deltaSeconds(text: string): number | null {
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n > MAX_DELTA_SECONDS ? MAX_DELTA_SECONDS : n;
}

/**
 * Reads a `Cache-Control` header value. Directive names are case-insensitive; values may be quoted; unknown directives
 * and malformed values are ignored; with several `max-age` the first valid one counts.
 * @example parseCacheControl('public, max-age=3600') // { maxAge: 3600, noCache: false, noStore: false }
 */
export function parseCacheControl(value: string | null): CacheDirectives {
  let maxAge: number | null = null;
  let noCache = false;
  let noStore = false;
  if (value !== null) {
    for (const part of value.split(',')) {
      const eq = part.indexOf('=');
      const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
      let arg = eq < 0 ? '' : part.slice(eq + 1).trim();
      if (arg.length >= 2 && arg.startsWith('"') && arg.endsWith('"')) arg = arg.slice(1, -1);
      if (name === 'max-age' && maxAge === null) maxAge = deltaSeconds(arg);
      else if (name === 'no-cache') noCache = true;
      else if (name === 'no-store') noStore = true;
    }
  }
  return { maxAge, noCache, noStore };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function utc(year: number, month: string, day: number, time: string): number | null {
  const m = MONTHS.indexOf(month.toLowerCase());
  const hms = /^(\d{2}):(\d{2}):(\d{2})$/.exec(time);
  if (m < 0 || hms === null) return null;
  const [h, min, s] = [Number(hms[1]), Number(hms[2]), Number(hms[3])];
  if (day < 1 || day > 31 || h > 23 || min > 59 || s > 60) return null;
  const ms = Date.UTC(year, m, day, h, min, Math.min(s, 59));
  // Reject dates like 31 Feb that Date.UTC would roll over.
  return new Date(ms).getUTCDate() === day ? ms : null;
}

/**
 * Reads an HTTP-date in any of its three forms, always as UTC: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850
 * (`Sunday, 06-Nov-94 08:49:37 GMT`; two-digit years 00–49 read as 20xx, 50–99 as 19xx), and
 * asctime (`Sun Nov  6 08:49:37 1994`). Returns epoch milliseconds, or null when it is none of them.
 */
export function parseHttpDate(text: string): number | null {
  const s = text.trim();
  let m = /^[A-Za-z]{3}, (\d{2}) ([A-Za-z]{3}) (\d{4}) (\S+) GMT$/.exec(s);
  if (m !== null) return utc(Number(m[3]), m[2]!, Number(m[1]), m[4]!);
  m = /^[A-Za-z]{6,9}, (\d{2})-([A-Za-z]{3})-(\d{2}) (\S+) GMT$/.exec(s);
  if (m !== null) {
    const yy = Number(m[3]);
    return utc(yy < 50 ? 2000 + yy : 1900 + yy, m[2]!, Number(m[1]), m[4]!);
  }
  m = /^[A-Za-z]{3} ([A-Za-z]{3}) +(\d{1,2}) (\S+) (\d{4})$/.exec(s);
  if (m !== null) return utc(Number(m[4]), m[1]!, Number(m[2]), m[3]!);
  return null;
}

/**
 * How long a `Retry-After` asks to wait, in milliseconds: `120` → 120,000; an HTTP-date → that date minus the response
 * time. The response time is the server's `Date` header when given (so the two clocks never mix), else `receivedAt`.
 * A date in the past gives 0. Returns null when the value is absent or neither form.
 */
export function parseRetryAfter(value: string | null, receivedAt: number, serverDate?: string | null): number | null {
  if (value === null) return null;
  const seconds = deltaSeconds(value.trim());
  if (seconds !== null) return seconds * 1000;
  const at = parseHttpDate(value);
  if (at === null) return null;
  const base = (serverDate === undefined || serverDate === null ? null : parseHttpDate(serverDate)) ?? receivedAt;
  return Math.max(0, at - base);
}
