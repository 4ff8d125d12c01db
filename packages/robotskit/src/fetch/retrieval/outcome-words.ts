/**
 * The one catalogue of robots.txt fetch outcomes in plain words: "host not found", "TLS failure: the server does not
 * speak TLS on this port", "redirect loop", "server error (HTTP 503)". Every surface (command line, report API, web UI,
 * alerts, the availability timeline's messages) says the same thing for the same outcome by asking here, and never
 * shows a runtime's raw text (`getaddrinfo ENOTFOUND`, OpenSSL's `wrong version number`) in its place.
 *
 * Input is the facts a stored fetch keeps (status, error kind, code, message), so a report can word a fetch it read
 * back from a database as well as a fresh {@link RetrievalResult}. Kinds this module does not know are worded from
 * the status, or as a failed fetch: never as their raw text.
 */

import { nonNegativeMs } from '../shared/options.js';
import { DEFAULT_DISALLOW_PERIOD, longSpan } from '../shared/periods.js';
import { type RetrievalErrorKind, type RetrievalOutcome, UNSUPPORTED_SCHEME } from '../shared/types.js';

/** The facts of one fetch that decide its words. A {@link RetrievalResult} is one. */
export interface OutcomeFacts {
  /** What the fetch means for crawling; derived from `status` and `error` when absent. */
  readonly outcome?: RetrievalOutcome | null;
  /** HTTP status of the last response; null when none arrived. */
  readonly status: number | null;
  /**
   * Why the fetch did not end with a usable response: the retrieval's error. `code` is the runtime's code
   * (`ENOTFOUND`, `ERR_SSL_WRONG_VERSION_NUMBER`) when known; `message` is only searched for such a code when `code` is
   * missing, never shown.
   */
  readonly error?: {
    readonly kind: RetrievalErrorKind;
    readonly code?: string | null;
    readonly message?: string | null;
    readonly phase?: 'request' | 'body';
  } | null;
}

/** A fetch outcome in words. */
export interface OutcomeWords {
  /** What happened, short and lowercase, for a status cell or a sentence: `host not found`, `server error (HTTP 503)`. */
  readonly summary: string;
  /** What it means for crawling, one sentence without a final period: `Google stops crawling the site…`. */
  readonly effect: string;
  /** The outcome the words describe. */
  readonly outcome: RetrievalOutcome;
}

/** Options of {@link describeFetchOutcome}. */
export interface OutcomeWordsOptions {
  /** The timeout that ran out, in milliseconds, to say "no response within 10 s". */
  readonly timeoutMs?: number;
  /**
   * How long failures stop crawling before the last good version applies, in milliseconds, as the availability
   * options configure it (their `disallowPeriod`: the availability options themselves may be passed). The
   * `disallow-all` effect says it: "after 12 hours the last good version applies".
   * @default 43200000 (12 h)
   */
  readonly disallowPeriod?: number;
}

const EFFECT: Record<RetrievalOutcome, string> = {
  rules: 'its rules apply',
  'allow-all': 'Google treats that as no robots.txt: everything may be crawled',
  'disallow-all': disallowEffect(DEFAULT_DISALLOW_PERIOD),
};

/** The `disallow-all` effect with the period failures stop crawling for. */
function disallowEffect(period: number): string {
  const then =
    period === 0 ? 'the last good version applies at once' : `after ${longSpan(period)} the last good version applies`;
  return `Google stops crawling the site until the file can be fetched (${then})`;
}

/** What an outcome means for crawling, with the configured period. */
function effectOf(outcome: RetrievalOutcome, options: OutcomeWordsOptions): string {
  const period = options.disallowPeriod;
  if (outcome !== 'disallow-all' || period === undefined || period === DEFAULT_DISALLOW_PERIOD) return EFFECT[outcome];
  return disallowEffect(nonNegativeMs(period, DEFAULT_DISALLOW_PERIOD, 'disallowPeriod'));
}

/** Runtime codes with words of their own. */
const CODE_WORDS: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_NONAME: 'host not found',
  EAI_NODATA: 'host not found',
  ENODATA: 'host not found',
  EAI_AGAIN: 'host name lookup failed (temporary DNS failure)',
  EAI_FAIL: 'host name lookup failed',
  ESERVFAIL: 'host name lookup failed',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'connection closed by the server',
  ERR_STREAM_PREMATURE_CLOSE: 'connection closed by the server',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network unreachable',
  CERT_HAS_EXPIRED: 'TLS failure: the certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS failure: self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS failure: self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS failure: the certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS failure: the certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS failure: the certificate is for another host name',
  HOSTNAME_MISMATCH: 'TLS failure: the certificate is for another host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS failure: the server does not speak TLS on this port (plain http?)',
  UND_ERR_CONNECT_TIMEOUT: 'no connection in time',
  UND_ERR_HEADERS_TIMEOUT: 'no response in time',
  UND_ERR_BODY_TIMEOUT: 'the response stalled',
  FTP_550: 'no such file (FTP 550)',
  FTP_530: 'FTP login refused (530)',
};

/** Codes as they appear inside runtime messages (`getaddrinfo ENOTFOUND x.invalid`), for stored fetches with no code. */
const CODE_IN_MESSAGE = /\b(E[A-Z]{3,}|ERR_[A-Z0-9_]+|UND_ERR_[A-Z_]+|CERT_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT)\b/g;
/** OpenSSL's text for a plain-http server on a TLS port; the code is not always part of the message. */
const WRONG_VERSION = /wrong version number|packet length too long|http request/i;

/**
 * The code to word an error by: its own when that has words, else one its message names (a stored fetch may have no
 * code; Node's TLS errors say `EPROTO` with OpenSSL's reason only in the message), else its own.
 */
function codeOf(error: NonNullable<OutcomeFacts['error']>): string | null {
  if (error.code && CODE_WORDS[error.code] !== undefined) return error.code;
  const message = error.message ?? '';
  for (const match of message.matchAll(CODE_IN_MESSAGE)) if (CODE_WORDS[match[1]!] !== undefined) return match[1]!;
  if (error.kind === 'tls' && WRONG_VERSION.test(message)) return 'ERR_SSL_WRONG_VERSION_NUMBER';
  return error.code || null;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** Words for an HTTP status the fetch ended with. */
function statusWords(status: number): string {
  if (status >= 200 && status < 300) return `fetched (HTTP ${status})`;
  if (status === 404 || status === 410) return `not found (HTTP ${status})`;
  if (status === 401 || status === 403) return `access denied (HTTP ${status})`;
  if (status === 429) return 'too many requests (HTTP 429)';
  if (status >= 500 && status < 600) return `server error (HTTP ${status})`;
  if (status >= 300 && status < 400) return `redirect without a file (HTTP ${status})`;
  if (status >= 400 && status < 500) return `client error (HTTP ${status})`;
  return `invalid status (HTTP ${status})`;
}

function errorWords(error: NonNullable<OutcomeFacts['error']>, options: OutcomeWordsOptions): string | null {
  const code = codeOf(error);
  const byCode = code === null ? undefined : CODE_WORDS[code];
  switch (error.kind) {
    case 'dns':
      return byCode ?? 'host not found';
    case 'connect':
      return byCode ?? 'could not connect';
    case 'tls':
      return byCode ?? 'TLS failure';
    case 'timeout':
      if (options.timeoutMs !== undefined) {
        return error.phase === 'body'
          ? `no complete response within ${seconds(options.timeoutMs)}`
          : `no response within ${seconds(options.timeoutMs)}`;
      }
      return byCode ?? (error.phase === 'body' ? 'the response stalled' : 'no response in time');
    case 'reset':
      return byCode ?? 'connection closed by the server';
    case 'protocol':
      // FTP answers carry their reply code (FTP_550…): words for the known ones, the code for the others.
      if (code?.startsWith('FTP_')) return byCode ?? `FTP server refused (${code.slice(4)})`;
      return 'invalid HTTP response';
    case 'body':
      return 'the response broke off while being read';
    case 'too-many-redirects':
      return 'too many redirects';
    case 'redirect-loop':
      return 'redirect loop';
    case 'invalid-url':
      return 'redirect to an unusable address';
    case 'aborted':
      return 'fetch cancelled';
    case 'blocked':
      if (error.code === UNSUPPORTED_SCHEME) return 'not fetched: no FTP client here to read an ftp:// robots.txt';
      return 'not fetched: the address is private or loopback, which this service may not reach';
    case 'unknown':
      return byCode ?? 'fetch failed';
    default:
      return byCode ?? null;
  }
}

function outcomeOf(facts: OutcomeFacts): RetrievalOutcome {
  if (facts.outcome) return facts.outcome;
  const { status, error } = facts;
  if (error && ['too-many-redirects', 'redirect-loop', 'invalid-url'].includes(error.kind)) return 'allow-all';
  // An error with a status: the answer began and then failed (a reset or a timeout in the body).
  if (status === null || error) return 'disallow-all';
  if (status >= 200 && status < 300) return 'rules';
  if (status === 429 || status >= 500) return 'disallow-all';
  return 'allow-all';
}

/**
 * A fetch outcome in plain words, the same on every surface. A surface whose availability periods are not Google's
 * passes them (`{ ...options, disallowPeriod }`), so that the effect says its own period.
 * @example describeFetchOutcome({ status: null, error: { kind: 'dns', code: 'ENOTFOUND' } }).summary // 'host not found'
 * @example describeFetchOutcome({ status: 503, error: null }).summary // 'server error (HTTP 503)'
 * @example describeFetchOutcome({ status: 503, error: null }, { disallowPeriod: 6 * 3_600_000 }).effect // '… (after 6 hours the last good version applies)'
 */
export function describeFetchOutcome(facts: OutcomeFacts, options: OutcomeWordsOptions = {}): OutcomeWords {
  const outcome = outcomeOf(facts);
  let summary: string | null = null;
  if (facts.error) {
    summary = errorWords(facts.error, options);
    // An answer that began and then broke off: say both.
    if (
      summary !== null &&
      facts.status !== null &&
      facts.error.phase === 'body' &&
      facts.error.kind !== 'aborted' &&
      options.timeoutMs === undefined
    ) {
      summary = `HTTP ${facts.status}, then ${summary}`;
    }
  }
  summary ??= facts.status === null ? 'fetch failed' : statusWords(facts.status);
  return { summary, effect: effectOf(outcome, options), outcome };
}

/**
 * The status a fetch ended with, as its protocol says it: `HTTP 503`, or `FTP 530` for an FTP server's reply (whose
 * error code is `FTP_…`); null when there was none (a network failure, a file read over FTP). Every surface that shows
 * a bare status asks here, so an FTP reply is never called HTTP.
 * @example statusLabel({ status: 530, error: { kind: 'protocol', code: 'FTP_530' } }) // 'FTP 530'
 * @example statusLabel({ status: 503, error: null }) // 'HTTP 503'
 */
export function statusLabel(facts: Pick<OutcomeFacts, 'status' | 'error'>): string | null {
  if (facts.status === null) return null;
  return facts.error?.code?.startsWith('FTP_') === true ? `FTP ${facts.status}` : `HTTP ${facts.status}`;
}
