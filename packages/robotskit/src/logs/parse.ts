/**
 * One access-log line → one request: Common and Combined Log Format (Apache's and nginx's default lines) and JSON
 * lines with configurable field names. A line that is none of these is a reason, never an exception. A CLF line is
 * read by positions, its common shapes checked in place rather than searched for (test/logs-clf.test.ts holds them to
 * what one regular expression over the line reads).
 *
 * A line may carry the request's host, for logs of several sites: a virtual host field before the Common/Combined
 * fields (`HostField` `first`: nginx `$host` first, Apache's `vhost_combined` `%v:%p`) or after them (`last`: the
 * line's last field, quoted or not), or a JSON field (`JsonFields.host`). `logHost` reads it as robots.txt is keyed.
 */

/** What a request line says, as much of it as the judging needs. */
export interface LogRequest {
  /** The client's address as logged (`-` when not). */
  readonly ip: string;
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly method: string;
  /** The request target as sent (`/a/b?c=d`, or a whole URL through a proxy). */
  readonly target: string;
  /** The status code, or 0 when not logged. */
  readonly status: number;
  /** The User-Agent header, `''` when not logged (Common Log Format) or `-`. */
  readonly userAgent: string;
  /** The request's host as logged (see {@link HostField}, `JsonFields.host`), null when the line carries none. */
  readonly host: string | null;
}

/** Where a Common/Combined line carries the request's host: nowhere, its first field, or its last. */
export type HostField = 'none' | 'first' | 'last';

/** The formats `--log-format` names; `auto` reads a line starting with `{` as JSON, any other as CLF. */
export type LogFormat = 'auto' | 'combined' | 'common' | 'json';

/** What each request field is called in JSON lines; the first name present wins. Dots reach into objects. */
export interface JsonFields {
  readonly time: readonly string[];
  readonly ip: readonly string[];
  readonly method: readonly string[];
  readonly target: readonly string[];
  readonly status: readonly string[];
  readonly userAgent: readonly string[];
  /** A whole request line (`GET /a HTTP/1.1`), read when no target field is present. */
  readonly request: readonly string[];
  /** The request's host (`Host` header or virtual host), for logs of several sites. */
  readonly host: readonly string[];
}

/** The names nginx's `escape=json` log formats, Caddy, Traefik and most JSON loggers use. */
export const DEFAULT_JSON_FIELDS: JsonFields = {
  time: ['time', 'timestamp', '@timestamp', 'time_local', 'time_iso8601', 'ts', 'StartUTC'],
  ip: ['remote_addr', 'ip', 'client_ip', 'remote_ip', 'clientip', 'request.remote_ip', 'ClientHost'],
  method: ['method', 'request_method', 'request.method', 'RequestMethod'],
  target: ['request_uri', 'uri', 'path', 'url', 'request.uri', 'RequestPath'],
  status: ['status', 'status_code', 'response_status', 'DownstreamStatus'],
  userAgent: [
    'http_user_agent',
    'user_agent',
    'userAgent',
    'ua',
    'agent',
    'request.headers.User-Agent',
    'request_User-Agent',
  ],
  request: ['request'],
  host: ['host', 'http_host', 'server_name', 'vhost', 'request.host', 'RequestHost'],
};

/** The JSON field keys `--field` may set (`--field time=ts`). */
export const FIELD_KEYS = ['time', 'ip', 'method', 'target', 'status', 'userAgent', 'request', 'host'] as const;

/**
 * A logged host as robots.txt is keyed by it: lower case, without a final dot, without the default ports `:80` and
 * `:443` (Apache's `%v:%p`), with any other port (robots.txt is per origin: `a.example:8080` has its own). An IPv6
 * literal keeps its brackets. Null for none (`-`, empty) or what cannot be a host (white space, a slash, a bad port).
 */
export function logHost(raw: string): string | null {
  const text = raw.trim().toLowerCase();
  const portAt = text.startsWith('[') ? text.indexOf(']:') + 1 : text.indexOf(':');
  let name = portAt > 0 ? text.slice(0, portAt) : text;
  const port = portAt > 0 ? text.slice(portAt + 1) : '';
  if (portAt > 0 && !/^\d{1,5}$/.test(port)) return null;
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '' || name === '-' || /[\s/\\@?#"]/.test(name) || (!name.startsWith('[') && name.includes(':')))
    return null;
  return port === '' || port === '80' || port === '443' ? name : `${name}:${Number(port)}`;
}

const MONTHS: Record<string, number> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

let lastClfTime = '';
let lastClfMs = Number.NaN;

/** `10/Oct/2000:13:55:36 -0700` → milliseconds, NaN when it is not such a time (the last one cached: logs repeat it). */
export function clfTime(text: string): number {
  if (text === lastClfTime) return lastClfMs;
  const m = /^(\d{1,2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))? ([+-])(\d{2})(\d{2})$/.exec(text);
  let ms = Number.NaN;
  const month = m === null ? undefined : MONTHS[m[2]!];
  if (m !== null && month !== undefined) {
    const offset = (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) * 60_000;
    const fraction = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
    ms = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6])) + fraction - offset;
  }
  lastClfTime = text;
  lastClfMs = ms;
  return ms;
}

/** The first `char` at or after `from` and before `end`, -1 when none. */
function find(text: string, char: string, from: number, end: number): number {
  const at = text.indexOf(char, from);
  return at >= end ? -1 : at;
}

/** The block `backslashAt` last searched, from where, and the first backslash it found there (-1: none). */
let backslashText = '';
let backslashFrom = 0;
let backslash = -1;

/**
 * The first backslash in `text` at or after `from` (Infinity when none). Most logs hold none: a plain search for one
 * would read the whole block for each line, so the answer is kept and reused until the lines pass it.
 */
function backslashAt(text: string, from: number): number {
  if (text !== backslashText || from < backslashFrom || (backslash >= 0 && backslash < from)) {
    backslashText = text;
    backslashFrom = from;
    backslash = text.indexOf('\\', from);
  }
  return backslash < 0 ? Number.POSITIVE_INFINITY : backslash;
}

/**
 * The index of the quote closing a quoted field that opens before `from`, before `end` (-1 when none): `\"` (Apache's
 * escape) does not close it.
 */
function closingQuote(text: string, from: number, end: number): number {
  let at = find(text, '"', from, end);
  while (at > 0 && text.charCodeAt(at - 1) === 0x5c) {
    let slashes = 0;
    for (let i = at - 1; i >= from && text.charCodeAt(i) === 0x5c; i--) slashes++;
    if (slashes % 2 === 0) break;
    at = find(text, '"', at + 1, end);
  }
  return at;
}

/** `GET /a HTTP/1.1` → method and target; null when it is not a request line (`-`, a TLS handshake's bytes). */
function requestLine(text: string): { method: string; target: string } | null {
  const first = text.indexOf(' ');
  if (first <= 0) return null;
  const second = text.indexOf(' ', first + 1);
  const target = second < 0 ? text.slice(first + 1) : text.slice(first + 1, second);
  const method = text.slice(0, first);
  return target === '' || !isMethod(method) ? null : { method, target };
}

/** The characters of the last CLF time read, as numbers (a cut string is slow to read a character of). */
const lastClfCodes: number[] = [];
let lastCodesMs = Number.NaN;
/** The seconds (two digits at `SECONDS`) of the last time read when it is laid out as {@link CLF_LENGTH} characters. */
let lastSeconds = -1;

/** `dd/Mon/yyyy:hh:mm:ss +zzzz`: its length, and where its seconds are. */
const CLF_LENGTH = 26;
const SECONDS = 18;

/**
 * The time of the {@link CLF_LENGTH} characters after `[` at `open` when they are the last time read, or differ from it
 * only in the seconds (the last one's minute plus those seconds: Date.UTC adds them the same way); NaN when neither.
 * Logs repeat their time from line to line, so most lines are read by this comparison alone.
 */
function sameTimeAt(text: string, open: number): number {
  const last = lastClfCodes;
  const from = open + 1;
  let i = 0;
  while (i < last.length && text.charCodeAt(from + i) === last[i]) i++;
  if (i === last.length) return lastCodesMs;
  if ((i !== SECONDS && i !== SECONDS + 1) || lastSeconds < 0) return Number.NaN;
  const tens = text.charCodeAt(from + SECONDS) - 0x30;
  const ones = text.charCodeAt(from + SECONDS + 1) - 0x30;
  if (tens < 0 || tens > 9 || ones < 0 || ones > 9) return Number.NaN;
  for (let j = SECONDS + 2; j < CLF_LENGTH; j++) if (text.charCodeAt(from + j) !== last[j]) return Number.NaN;
  const seconds = tens * 10 + ones;
  lastCodesMs += (seconds - lastSeconds) * 1000;
  lastSeconds = seconds;
  last[SECONDS] = tens + 0x30;
  last[SECONDS + 1] = ones + 0x30;
  return lastCodesMs;
}

/** The time between `[` at `open` and `]` at `close` (the last one's text compared in place first). */
function clfTimeAt(text: string, open: number, close: number): number {
  const last = lastClfCodes;
  if (close - open - 1 === last.length) {
    const same = last.length === CLF_LENGTH ? sameTimeAt(text, open) : Number.NaN;
    if (!Number.isNaN(same)) return same;
    let i = last.length - 1;
    while (i >= 0 && text.charCodeAt(open + 1 + i) === last[i]) i--;
    if (i < 0) return lastCodesMs;
  }
  const ms = clfTime(text.slice(open + 1, close));
  lastCodesMs = ms;
  last.length = 0;
  for (let i = open + 1; i < close; i++) last.push(text.charCodeAt(i));
  // Only a time read whole as `dd/Mon/yyyy:hh:mm:ss ±zzzz` (26 characters: no fraction) gains its seconds by the
  // shortcut; any other time is compared whole.
  lastSeconds =
    Number.isNaN(ms) || last.length !== CLF_LENGTH ? -1 : (last[SECONDS]! - 0x30) * 10 + last[SECONDS + 1]! - 0x30;
  return ms;
}

/** The status code between `from` and `to`; 0 when it is not an integer. */
function statusAt(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9 || to - from > 9) {
      // Not plain digits: read as Number() reads it (`-` is 0, as is `2.5`).
      const status = Number(text.slice(from, to));
      return Number.isInteger(status) ? status : 0;
    }
    n = n * 10 + d;
  }
  return n;
}

/** Whether a request line's method is one (`GET`, `PROPFIND`: capital letters). */
function isMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || /^[A-Z]+$/.test(method);
}

/** A Common or Combined Log Format line; a string saying what is wrong when it is not one. */
export function parseClf(line: string, requireAgent: boolean, hostField: HostField = 'none'): LogRequest | string {
  return clfAt(line, 0, line.length, requireAgent, hostField);
}

/** The line's last field after `from` (a virtual host appended to the format), quotes dropped; null when none. */
function lastField(text: string, from: number, end: number): string | null {
  const space = text.lastIndexOf(' ', end - 1);
  if (space < from || space + 1 >= end) return null;
  const quoted = text.charCodeAt(space + 1) === 0x22 && text.charCodeAt(end - 1) === 0x22 && end - space > 2;
  return quoted ? text.slice(space + 2, end - 1) : text.slice(space + 1, end);
}

/** Whether the character at `at` is a digit. */
function digitAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return c >= 0x30 && c <= 0x39;
}

/**
 * Where the time's `[` is, the space ending the address at `space`: `- - [` (no identity, no user: most logs) is read
 * in place, anything else searched for.
 */
function openAt(text: string, space: number, end: number): number {
  return space + 5 < end &&
    text.charCodeAt(space + 5) === 0x5b &&
    text.charCodeAt(space + 1) === 0x2d &&
    text.charCodeAt(space + 2) === 0x20 &&
    text.charCodeAt(space + 3) === 0x2d &&
    text.charCodeAt(space + 4) === 0x20
    ? space + 5
    : find(text, '[', space, end);
}

/** The space ending the status field that starts at `from` (three digits: read in place), -1 when none. */
function statusEndAt(text: string, from: number, end: number): number {
  return from + 3 < end &&
    text.charCodeAt(from + 3) === 0x20 &&
    digitAt(text, from) &&
    digitAt(text, from + 1) &&
    digitAt(text, from + 2)
    ? from + 3
    : find(text, ' ', from, end);
}

/** The ` "` opening the referer after the status's space at `statusEnd` (a byte count before it read in place). */
function refererOpenAt(text: string, statusEnd: number, end: number): number {
  let at = statusEnd + 1;
  while (at < end && digitAt(text, at)) at++;
  return at < end - 1 && text.charCodeAt(at) === 0x20 && text.charCodeAt(at + 1) === 0x22
    ? at
    : find(text, ' "', statusEnd + 1, end - 1);
}

/**
 * The CLF line between `start` and `end` of `text` (a block of lines), read in place by positions: no regular
 * expression, no string cut but the fields kept. This runs once per log line, so the common shapes (`- - [`, a time
 * like the line before's, `"GET `, a three-digit status, a byte count, `"-"`) are read where they must be rather than
 * searched for; every shortcut finds what the search would.
 */
function clfAt(
  text: string,
  lineStart: number,
  end: number,
  requireAgent: boolean,
  hostField: HostField,
): LogRequest | string {
  let start = lineStart;
  let host: string | null = null;
  if (hostField === 'first') {
    const after = find(text, ' ', start, end);
    if (after <= start) return 'no virtual host field before the Common/Combined fields';
    host = text.slice(start, after);
    start = after + 1;
  }
  const space = find(text, ' ', start, end);
  const open = space < 0 ? -1 : openAt(text, space, end);
  // The time: a `]` where a time like the last one's ends, its text compared in place, or searched for and read.
  let close = open + CLF_LENGTH + 1;
  let time =
    open >= 0 && close < end && text.charCodeAt(close) === 0x5d && lastClfCodes.length === CLF_LENGTH
      ? sameTimeAt(text, open)
      : Number.NaN;
  if (Number.isNaN(time)) {
    close = open < 0 ? -1 : find(text, ']', open, end);
    if (space <= start || close < 0) return 'not a Common or Combined Log Format line';
    time = clfTimeAt(text, open, close);
    if (Number.isNaN(time)) return `unreadable time '${text.slice(open + 1, close)}'`;
  } else if (space <= start) return 'not a Common or Combined Log Format line';
  if (close + 2 >= end || text.charCodeAt(close + 1) !== 0x20 || text.charCodeAt(close + 2) !== 0x22)
    return 'no quoted request line';
  const quote = closingQuote(text, close + 3, end);
  if (quote < 0) return 'the request line has no closing quote';
  // The request line `METHOD TARGET VERSION` between close + 3 and quote.
  const get =
    close + 6 < quote &&
    text.charCodeAt(close + 6) === 0x20 &&
    text.charCodeAt(close + 3) === 0x47 &&
    text.charCodeAt(close + 4) === 0x45 &&
    text.charCodeAt(close + 5) === 0x54;
  const first = get ? close + 6 : find(text, ' ', close + 3, quote);
  if (first <= close + 3) return 'no request line';
  const second = find(text, ' ', first + 1, quote);
  const target = text.slice(first + 1, second < 0 ? quote : second);
  const method = get ? 'GET' : text.slice(close + 3, first);
  if (target === '' || !isMethod(method)) return 'no request line';
  const statusEnd = statusEndAt(text, quote + 2, end);
  const status = statusAt(text, Math.min(quote + 2, end), statusEnd < 0 ? end : statusEnd);
  // Combined: … status bytes "referer" "user agent" (fields a custom format adds after them are left alone).
  const refererOpen = statusEnd < 0 ? -1 : refererOpenAt(text, statusEnd, end);
  const refererClose =
    refererOpen < 0
      ? -1
      : refererOpen + 3 < end && text.charCodeAt(refererOpen + 2) === 0x2d && text.charCodeAt(refererOpen + 3) === 0x22
        ? refererOpen + 3
        : closingQuote(text, refererOpen + 2, end);
  const agentOpen = refererClose < 0 || text.charCodeAt(refererClose + 1) !== 0x20 ? -1 : refererClose + 2;
  const agentClose =
    agentOpen < 0 || agentOpen >= end || text.charCodeAt(agentOpen) !== 0x22
      ? -1
      : closingQuote(text, agentOpen + 1, end);
  if (requireAgent && agentClose < 0) return 'no User-Agent field (a Common Log Format line?)';
  let userAgent = '';
  if (agentClose >= 0 && !(agentClose === agentOpen + 2 && text.charCodeAt(agentOpen + 1) === 0x2d)) {
    userAgent = text.slice(agentOpen + 1, agentClose);
    if (backslashAt(text, agentOpen + 1) < agentClose) userAgent = userAgent.replace(/\\(["\\])/g, '$1');
  }
  if (hostField === 'last') {
    // After the user agent's quote, or after the bytes field of a Common line.
    const bytesEnd = statusEnd < 0 ? -1 : find(text, ' ', statusEnd + 1, end);
    const from = agentClose >= 0 ? agentClose + 1 : bytesEnd < 0 ? end : bytesEnd;
    host = lastField(text, from, end);
  }
  return { ip: text.slice(start, space), time, method, target, status, userAgent, host };
}

function fieldOf(record: Record<string, unknown>, names: readonly string[]): unknown {
  for (const name of names) {
    if (name in record) return record[name];
    if (!name.includes('.')) continue;
    let value: unknown = record;
    for (const part of name.split('.')) {
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
    }
    if (value !== undefined) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** A JSON time: an ISO 8601 string, a CLF time, or a number of seconds (milliseconds when over 10^11). */
function jsonTime(value: unknown): number {
  if (typeof value === 'number') return value > 1e11 ? value : value * 1000;
  if (typeof value !== 'string') return Number.NaN;
  if (/^\d+(\.\d+)?$/.test(value)) return jsonTime(Number(value));
  const clf = clfTime(value);
  return Number.isNaN(clf) ? Date.parse(value) : clf;
}

/** A JSON line; a string saying what is wrong when it is not an object with a time and a request. */
export function parseJsonLine(line: string, fields: JsonFields): LogRequest | string {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'not a JSON object';
  const r = record as Record<string, unknown>;
  const time = jsonTime(fieldOf(r, fields.time));
  if (Number.isNaN(time)) return `no readable time (fields tried: ${fields.time.join(', ')})`;
  let target = fieldOf(r, fields.target);
  let method = fieldOf(r, fields.method);
  if (typeof target !== 'string' || target === '') {
    const request = fieldOf(r, fields.request);
    const read = typeof request === 'string' ? requestLine(request) : null;
    if (read === null) return `no request target (fields tried: ${[...fields.target, ...fields.request].join(', ')})`;
    target = read.target;
    method ??= read.method;
  }
  const ip = fieldOf(r, fields.ip);
  const status = Number(fieldOf(r, fields.status));
  const ua = fieldOf(r, fields.userAgent);
  const host = fields.host.length === 0 ? undefined : fieldOf(r, fields.host);
  return {
    ip: typeof ip === 'string' && ip !== '' ? ip : '-',
    time,
    method: typeof method === 'string' ? method : 'GET',
    target: target as string,
    status: Number.isInteger(status) ? status : 0,
    userAgent: typeof ua === 'string' && ua !== '-' ? ua : '',
    host: typeof host === 'string' && host !== '' ? host : null,
  };
}

/**
 * The line between `start` and `end` of `text` (a block of lines, see `logBlocks`) in the given format; a string saying
 * what is wrong when it cannot be read.
 */
export function parseLogLineAt(
  text: string,
  start: number,
  end: number,
  format: LogFormat,
  fields: JsonFields,
  hostField: HostField = 'none',
): LogRequest | string {
  // `logBlocks` yields a NUL-led note in place of a line too long to keep.
  if (text.charCodeAt(start) === 0) return text.slice(start + 1, end);
  if (format === 'combined') return clfAt(text, start, end, true, hostField);
  if (format === 'common') return clfAt(text, start, end, false, hostField);
  if (format === 'json' || text.charCodeAt(start) === 0x7b) return parseJsonLine(text.slice(start, end), fields);
  return clfAt(text, start, end, false, hostField);
}
