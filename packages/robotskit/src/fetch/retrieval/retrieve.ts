/**
 * `fetchRobotsTxt`: one retrieval of an origin's robots.txt with Google's semantics (RFC 9309 §2.3): an unconditional
 * GET, redirects followed by hand (at most 5, across hosts, loops detected), the body streamed and cut at 500 KiB,
 * timeouts that cannot be defeated, and every outcome classified as `rules`, `allow-all` or `disallow-all`.
 */

import { isHtmlContentType, looksLikeHtml } from '../../parse/html.js';
import { DEFAULT_MAX_BYTES } from '../../parse/input.js';
import { originOf } from '../../url/origin.js';
import { nonNegativeInteger, positiveMs } from '../shared/options.js';
import {
  type AnyFetchLike,
  type AnyFetchResponseLike,
  type Clock,
  NO_HEADERS,
  type RedirectHop,
  type RetrievalError,
  type RetrievalHeaders,
  type RetrievalOutcome,
  type RetrievalResult,
  systemClock,
  UNSUPPORTED_SCHEME,
} from '../shared/types.js';
import { readBody } from '../transport/body.js';
import { Deadline } from '../transport/deadline.js';
import type { FtpGet } from '../transport/ftp.js';
import {
  cancelBody,
  DEFAULT_MAX_REDIRECTS,
  followRedirects,
  type RedirectsFollowed,
  resolveFetch,
} from '../transport/redirects.js';
import { retrieveOverFtp } from './ftp.js';

/** The User-Agent sent when the caller names none. Crawlers should send their own. */
export const DEFAULT_FETCH_USER_AGENT = 'robotskit/0.1 (robots.txt checker)';

/**
 * Timeouts of one retrieval, in milliseconds.
 *
 * About a "connect timeout": the fetch API has no connection phase. Resolving the name, opening the TCP connection,
 * the TLS handshake, sending the request and waiting for the status line are one opaque step, so `headers` bounds them
 * all together; it is the connect timeout as far as a portable client can have one. A runtime may fail sooner on its
 * own (Node's fetch gives up connecting after 10 s, reported as a `timeout`); to tune the connection itself, inject a
 * `fetch` configured for it (in Node, an undici `Agent` with `connect.timeout`).
 */
export interface RetrievalTimeouts {
  /**
   * From sending each request (the first one and every redirect) until its response headers arrive.
   * @default 10000
   */
  readonly headers?: number;
  /**
   * The longest the body may stall between two chunks.
   * @default 10000
   */
  readonly idle?: number;
  /**
   * The whole retrieval: every request, redirect and the body. A body that trickles one byte a second never trips the
   * idle timeout; this one ends it.
   * @default 30000
   */
  readonly total?: number;
}

/** Options of {@link fetchRobotsTxt}. */
export interface RetrievalOptions {
  /**
   * The `fetch` to use. Its bodies may be web streams or async iterables of chunks ({@link AnyFetchResponseLike}).
   * @default globalThis.fetch
   */
  readonly fetch?: AnyFetchLike;
  /**
   * The `User-Agent` header: a full string (`Mozilla/5.0 (compatible; MyBot/1.0; +https://example.com/bot)`) or a
   * product token.
   * @default DEFAULT_FETCH_USER_AGENT
   */
  readonly userAgent?: string;
  /** More request headers (`From`, `Accept-Language`…). `User-Agent` here is overridden by `userAgent`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Keep at most this many body bytes; the rest is not downloaded and the result says `truncated`.
   * @default 512000
   */
  readonly maxBytes?: number;
  /**
   * Follow at most this many redirects; one more means "no robots.txt" (allow-all), as Google does after 5.
   * @default 5
   */
  readonly maxRedirects?: number;
  readonly timeouts?: RetrievalTimeouts;
  /**
   * Where `fetchedAt` and the timings come from.
   * @default systemClock
   */
  readonly clock?: Clock;
  /** Aborts the retrieval; the result is then `disallow-all` with an `aborted` error. */
  readonly signal?: AbortSignal;
  /**
   * The FTP client for `ftp://` origins (see {@link FtpGet}): anonymous login, `RETR /robots.txt`. `status` is then
   * the FTP reply code when the server refused (550: no robots.txt, allow-all), else null. Without one, an `ftp://`
   * robots.txt is not fetched (no runtime's `fetch` reads FTP): `disallow-all` with a `blocked` error whose code is
   * `ERR_UNSUPPORTED_SCHEME`, a refusal of this process's own and no fact about the site.
   */
  readonly ftp?: FtpGet;
}

/** The retrieval timeouts when none are given (ms); the fleet derives its default wait from `total`. */
export const DEFAULT_TIMEOUTS = { headers: 10_000, idle: 10_000, total: 30_000 } as const;

function headersOf(response: AnyFetchResponseLike): RetrievalHeaders {
  const h = response.headers;
  return {
    cacheControl: h.get('cache-control'),
    contentType: h.get('content-type'),
    retryAfter: h.get('retry-after'),
    lastModified: h.get('last-modified'),
    etag: h.get('etag'),
    contentLength: h.get('content-length'),
    date: h.get('date'),
  };
}

/** How an HTTP status is read (2xx and 3xx are handled before). */
function outcomeOfStatus(status: number): RetrievalOutcome | null {
  if (status === 429 || (status >= 500 && status <= 599)) return 'disallow-all';
  if (status >= 400 && status <= 499) return 'allow-all';
  return null;
}

/**
 * Retrieves the robots.txt that governs a URL and classifies the outcome. Never rejects for anything the network or
 * the server does: DNS, connection, TLS, protocol and body failures, timeouts and hostile responses all become a
 * {@link RetrievalResult} (`disallow-all` with a typed `error`). Rejects only on programmer errors: a bad option, or a
 * URL without a robots.txt ({@link RobotsUrlError}).
 *
 * - **URL**: `originOrAnyUrl` may be any page URL; its origin's `/robots.txt` is fetched (see {@link robotsTxtUrl}).
 * - **Status**: 2xx → `rules` (the body is kept; an HTML page is flagged, its parseable lines still count);
 *   4xx except 429 → `allow-all`; 429 and 5xx → `disallow-all`; a status outside 200–599 → `disallow-all`
 *   (`protocol`).
 * - **Redirects** are followed by hand (`redirect: 'manual'`), so every hop goes through the injected `fetch` (an SSRF
 *   guard sees each one): up to `maxRedirects` (5), across hosts and schemes; the result applies to the original
 *   origin. One more redirect, a loop, or a redirect without a usable `Location` means "no robots.txt": `allow-all`
 *   with the reason in `error`.
 * - **Body**: streamed and cut at `maxBytes` (the stream is cancelled; `truncated` says so). Only 2xx bodies are read.
 * - **Timeouts**: see {@link RetrievalTimeouts}; they hold even if the injected `fetch` ignores its signal.
 *
 * **Browsers** hide redirects from `redirect: 'manual'` (an "opaque redirect": no status, no Location). When that
 * happens the request is repeated with `redirect: 'follow'` and the browser follows the chain itself: the hops are
 * then unknown (one {@link RedirectHop} with a null status, pointing at the final URL), the 5-hop limit becomes the
 * browser's 20, and a loop or a longer chain fails as a network error (`disallow-all`) rather than `allow-all`.
 * Cross-origin robots.txt in a browser also needs CORS headers from the site; without them every fetch fails as
 * `unknown` (`disallow-all`). Node, Deno, Bun and workers expose redirects and have no CORS.
 *
 * @example
 * const result = await fetchRobotsTxt('https://example.com/shop?id=1', { userAgent: 'MyBot/1.0' });
 * result.outcome; // 'rules' | 'allow-all' | 'disallow-all'
 * robotsTxtOf(result)?.isAllowed('https://example.com/shop?id=1', 'MyBot');
 */
export async function fetchRobotsTxt(
  originOrAnyUrl: string | URL,
  options: RetrievalOptions = {},
): Promise<RetrievalResult> {
  const origin = originOf(originOrAnyUrl);
  const robotsUrl = `${origin}/robots.txt`;
  const settings = resolveRetrieval(options);
  const fetchedAt = settings.clock.now();
  const phase = { now: 'request' as 'request' | 'body' };
  const deadline = new Deadline(new AbortController(), settings.totalMs, options.signal, () => phase.now);
  const setPhase = (next: 'request' | 'body') => {
    phase.now = next;
  };
  try {
    if (options.ftp !== undefined && origin.startsWith('ftp:')) {
      const { maxBytes, headersMs, idleMs, clock } = settings;
      return await retrieveOverFtp({
        origin,
        robotsUrl,
        ftp: options.ftp,
        maxBytes,
        headersMs,
        idleMs,
        deadline,
        clock,
        fetchedAt,
        setPhase,
      });
    }
    if (origin.startsWith('ftp:')) return noFtpClient(origin, robotsUrl, fetchedAt, settings.clock);
    return await retrieveOverHttp({ origin, robotsUrl, settings, deadline, fetchedAt, setPhase });
  } finally {
    deadline.dispose();
  }
}

/** An `ftp://` origin with no FTP client to read it: this process's own refusal (see {@link RetrievalOptions.ftp}). */
function noFtpClient(origin: string, robotsUrl: string, fetchedAt: number, clock: Clock): RetrievalResult {
  return {
    origin,
    robotsUrl,
    finalUrl: robotsUrl,
    outcome: 'disallow-all',
    status: null,
    redirects: [],
    headers: NO_HEADERS,
    body: null,
    size: 0,
    truncated: false,
    html: false,
    error: {
      kind: 'blocked',
      message: `not fetched: no FTP client was given to read ${robotsUrl}`,
      phase: 'request',
      code: UNSUPPORTED_SCHEME,
    },
    fetchedAt,
    timings: { headersMs: null, totalMs: clock.now() - fetchedAt },
  };
}

/** The retrieval options with their defaults applied and checked. */
interface RetrievalSettings {
  readonly fetch: AnyFetchLike;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly headersMs: number;
  readonly idleMs: number;
  readonly totalMs: number;
  readonly clock: Clock;
  /** The request headers, `user-agent` last and only once. */
  readonly headers: Record<string, string>;
}

function resolveRetrieval(options: RetrievalOptions): RetrievalSettings {
  const fetch = resolveFetch<AnyFetchLike>(options.fetch);
  const maxBytes = nonNegativeInteger(options.maxBytes, DEFAULT_MAX_BYTES, 'maxBytes');
  const maxRedirects = nonNegativeInteger(options.maxRedirects, DEFAULT_MAX_REDIRECTS, 'maxRedirects');
  const t = options.timeouts ?? {};
  const headersMs = positiveMs(t.headers, DEFAULT_TIMEOUTS.headers, 'timeouts.headers');
  const idleMs = positiveMs(t.idle, DEFAULT_TIMEOUTS.idle, 'timeouts.idle');
  const totalMs = positiveMs(t.total, DEFAULT_TIMEOUTS.total, 'timeouts.total');
  const clock = options.clock ?? systemClock;
  const userAgent = options.userAgent ?? DEFAULT_FETCH_USER_AGENT;
  if (typeof userAgent !== 'string') throw new TypeError('userAgent must be a string');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (name.toLowerCase() !== 'user-agent') headers[name] = value;
  }
  headers['user-agent'] = userAgent;
  return { fetch, maxBytes, maxRedirects, headersMs, idleMs, totalMs, clock, headers };
}

/** One retrieval over HTTP(S), from its start. */
interface HttpRetrieval {
  readonly origin: string;
  readonly robotsUrl: string;
  readonly settings: RetrievalSettings;
  readonly deadline: Deadline;
  readonly fetchedAt: number;
  readonly setPhase: (phase: 'request' | 'body') => void;
}

/** What was read of a body, for {@link resultOf}. */
interface BodyFacts {
  readonly bytes: Uint8Array | null;
  readonly size: number;
  readonly truncated: boolean;
  readonly html: boolean;
}

const NO_BODY: BodyFacts = { bytes: null, size: 0, truncated: false, html: false };

/** The redirects followed, then the status classified and (for 2xx) the body read. Never rejects. */
async function retrieveOverHttp(r: HttpRetrieval): Promise<RetrievalResult> {
  const { settings, deadline } = r;
  let headersAt: number | null = null;
  const followed = await followRedirects(
    r.robotsUrl,
    {
      fetch: settings.fetch,
      headers: settings.headers,
      maxRedirects: settings.maxRedirects,
      headersMs: settings.headersMs,
      onHeaders: () => {
        headersAt = settings.clock.now();
      },
    },
    deadline,
  );
  const response = followed.response;
  const finish = (outcome: RetrievalOutcome, error: RetrievalError | null, body = NO_BODY) =>
    resultOf(r, followed, response === null ? null : headersAt, outcome, error, body);
  if (response === null) return finish('disallow-all', followed.error);
  if (followed.error !== null) {
    const error = followed.error;
    // A redirect that cannot be followed means "no robots.txt", as Google reads it.
    return finish(
      'allow-all',
      error.kind === 'too-many-redirects' ? { ...error, message: `${error.message}; treated as no robots.txt` } : error,
    );
  }
  const status = response.status;
  if (status < 200 || status > 599) {
    cancelBody(response);
    return finish('disallow-all', {
      kind: 'protocol',
      message: `unexpected HTTP status ${status}`,
      phase: 'request',
      code: null,
    });
  }
  const classified = outcomeOfStatus(status);
  if (classified !== null) {
    cancelBody(response);
    return finish(classified, null);
  }
  r.setPhase('body');
  const read = await readBody(response.body, settings.maxBytes, settings.idleMs, deadline);
  if (read.error !== null) {
    return finish('disallow-all', read.error, { bytes: null, size: read.size, truncated: false, html: false });
  }
  const html = isHtmlContentType(response.headers.get('content-type')) || looksLikeHtml(read.bytes);
  return finish('rules', null, { bytes: read.bytes, size: read.size, truncated: read.truncated, html });
}

/** The result of an HTTP retrieval, its total time read now. */
function resultOf(
  r: HttpRetrieval,
  followed: RedirectsFollowed,
  headersAt: number | null,
  outcome: RetrievalOutcome,
  error: RetrievalError | null,
  body: BodyFacts,
): RetrievalResult {
  const end = r.settings.clock.now();
  const response = followed.response;
  return {
    origin: r.origin,
    robotsUrl: r.robotsUrl,
    finalUrl: followed.url,
    outcome,
    status: response === null ? null : response.status,
    redirects: [...followed.redirects],
    headers: response === null ? NO_HEADERS : headersOf(response),
    body: body.bytes,
    size: body.size,
    truncated: body.truncated,
    html: body.html,
    error,
    fetchedAt: r.fetchedAt,
    timings: { headersMs: headersAt === null ? null : headersAt - r.fetchedAt, totalMs: end - r.fetchedAt },
  };
}
