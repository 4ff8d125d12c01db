/**
 * The shapes of a robots.txt retrieval: what was asked, what came back, and how it is classified. Plain data: numbers,
 * strings, arrays and one `Uint8Array`, so a result can be stored, sent between workers (structured clone) or turned
 * into JSON with {@link retrievalToJson}.
 */

/**
 * What a fetch means for crawling, per RFC 9309 §2.3 as Google applies it:
 * - `rules`: a 2xx response; the body's rules decide ("conditional allow").
 * - `allow-all`: no robots.txt (4xx other than 429, or a redirect chain that does not reach a file).
 * - `disallow-all`: the server or the network failed (5xx, 429, DNS, connect, TLS, timeouts, broken bodies): crawling
 *   stops until a later fetch succeeds (see {@link effectivePolicy} for what applies over time).
 */
export type RetrievalOutcome = 'rules' | 'allow-all' | 'disallow-all';

/**
 * Why a retrieval did not end with a usable response. Stable kebab-case codes:
 * - `dns`: the host name did not resolve.
 * - `connect`: the TCP connection was refused or the host unreachable.
 * - `tls`: the TLS handshake failed (bad certificate, wrong protocol…).
 * - `timeout`: a configured timeout ran out (headers, idle body, or total), or the fetch implementation's own.
 * - `reset`: the connection was reset or closed by the peer.
 * - `protocol`: the response broke HTTP (unparseable status line, invalid chunked encoding, length mismatch), or the
 *   status is outside 200–599.
 * - `body`: the body stream failed for another reason.
 * - `too-many-redirects`: more than `maxRedirects` redirects (treated as "no robots.txt": allow-all).
 * - `redirect-loop`: a redirect back to a URL already visited (allow-all).
 * - `invalid-url`: a redirect without a usable `Location` (missing, unparseable, or not http/https) (allow-all).
 * - `aborted`: the caller's `AbortSignal` fired. Says nothing about the site: {@link effectivePolicy} ignores it.
 * - `blocked`: not fetched, by this process's own decision: the injected `fetch` or FTP client refused the request
 *   (e.g. an SSRF guard refusing a private address), or no client reads the scheme (code `ERR_UNSUPPORTED_SCHEME`).
 *   Says nothing about the site: a crawl client never writes it to a shared store.
 * - `unknown`: anything else the fetch implementation threw.
 */
export type RetrievalErrorKind =
  | 'dns'
  | 'connect'
  | 'tls'
  | 'timeout'
  | 'reset'
  | 'protocol'
  | 'body'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'invalid-url'
  | 'aborted'
  | 'blocked'
  | 'unknown';

/** Every {@link RetrievalErrorKind}, for validation and exhaustive tables. */
export const RETRIEVAL_ERROR_KINDS: readonly RetrievalErrorKind[] = [
  'dns',
  'connect',
  'tls',
  'timeout',
  'reset',
  'protocol',
  'body',
  'too-many-redirects',
  'redirect-loop',
  'invalid-url',
  'aborted',
  'blocked',
  'unknown',
];

/**
 * The code of a `blocked` error for a URL this process has no client for (an `ftp://` robots.txt without an FTP
 * client): not fetched, a refusal of the process's own like an SSRF guard's.
 */
export const UNSUPPORTED_SCHEME = 'ERR_UNSUPPORTED_SCHEME';

/** What went wrong, as data. */
export interface RetrievalError {
  readonly kind: RetrievalErrorKind;
  /** One line for people, e.g. `connect ECONNREFUSED 127.0.0.1:8080` or `no response headers within 10000 ms`. */
  readonly message: string;
  /** `request`: before the final response's headers arrived (including redirects); `body`: while reading the body. */
  readonly phase: 'request' | 'body';
  /** The underlying code when the runtime gave one (`ECONNRESET`, `ENOTFOUND`, `HPE_INVALID_CHUNK_SIZE`…), else null. */
  readonly code: string | null;
}

/** One redirect that was followed (or refused). */
export interface RedirectHop {
  /** The URL requested. */
  readonly url: string;
  /** Its status (301, 302, 303, 307, 308…); null for a browser's opaque redirect, whose status is hidden. */
  readonly status: number | null;
  /** The absolute URL it pointed to; null when it had no usable `Location`. */
  readonly location: string | null;
}

/** The response headers that matter for robots.txt, as received (null when absent). */
export interface RetrievalHeaders {
  /** `Cache-Control`: its `max-age`, `no-cache` and `no-store` set the cache lifetime ({@link cacheLifetime}). */
  readonly cacheControl: string | null;
  /** `Content-Type`: `text/html` marks an HTML page served as robots.txt. */
  readonly contentType: string | null;
  /** `Retry-After` (seconds or an HTTP-date): when to retry after 429 or 5xx. */
  readonly retryAfter: string | null;
  /** `Last-Modified`. */
  readonly lastModified: string | null;
  /** `ETag`. */
  readonly etag: string | null;
  /** `Content-Length`, as sent (the body may differ: see {@link RetrievalResult.size}). */
  readonly contentLength: string | null;
  /** `Date`: the server's clock, used to read an HTTP-date `Retry-After` without clock skew. */
  readonly date: string | null;
}

/** The headers of a retrieval that got no HTTP response (a network failure, an FTP answer). */
export const NO_HEADERS: RetrievalHeaders = {
  cacheControl: null,
  contentType: null,
  retryAfter: null,
  lastModified: null,
  etag: null,
  contentLength: null,
  date: null,
};

/** How long the retrieval took, in milliseconds of the injected clock. */
export interface RetrievalTimings {
  /** From the start until the headers of the final response (after redirects); null when none arrived. */
  readonly headersMs: number | null;
  /** From the start until the result was ready. */
  readonly totalMs: number;
}

/** Everything one robots.txt retrieval found out. Plain data; see {@link fetchRobotsTxt}. */
export interface RetrievalResult {
  /** The origin the result applies to (`https://example.com`), also when redirects led elsewhere. */
  readonly origin: string;
  /** The URL requested first: `${origin}/robots.txt`. */
  readonly robotsUrl: string;
  /** The URL whose response decided (the last one requested); equals `robotsUrl` without redirects. */
  readonly finalUrl: string;
  /** What the result means for crawling. */
  readonly outcome: RetrievalOutcome;
  /** HTTP status of the last response; null when there was none (network error, timeout before headers). */
  readonly status: number | null;
  /** Redirects followed, in order (the last one is the refused hop when the chain was cut). */
  readonly redirects: readonly RedirectHop[];
  /** Headers of the last response (all null when there was none). */
  readonly headers: RetrievalHeaders;
  /**
   * The kept bytes of a 2xx body (at most `maxBytes`), exactly as received after content decoding; null for every
   * other outcome (the body of a 4xx or 5xx page is not read). Parse it with {@link robotsTxtOf}.
   */
  readonly body: Uint8Array | null;
  /** Bytes of the body received (and kept, for 2xx; counted before a body error otherwise). */
  readonly size: number;
  /** True when the body was longer than `maxBytes`: only the first `maxBytes` were kept, the rest never downloaded. */
  readonly truncated: boolean;
  /**
   * True when a 2xx body is an HTML page (a `text/html` or `application/xhtml+xml` Content-Type, or a body that starts
   * like HTML). Its rules are still read, as Google reads whatever lines parse; a robots.txt that is HTML is almost
   * always a misconfigured server.
   */
  readonly html: boolean;
  /** Why the retrieval did not end with a usable response; null when it did (rules or a clean 4xx). */
  readonly error: RetrievalError | null;
  /** When the retrieval started, epoch milliseconds of the injected clock. */
  readonly fetchedAt: number;
  readonly timings: RetrievalTimings;
}

/**
 * The part of a `Response` robotskit reads. The standard `Response` of Node, Deno, Bun, workers and browsers fits it.
 */
export interface FetchResponseLike {
  /** The HTTP status (0 for an opaque redirect). */
  readonly status: number;
  /** `opaqueredirect` in browsers when `redirect: 'manual'` hides a redirect. */
  readonly type?: string;
  /** The final URL after redirects the runtime followed itself (only with `redirect: 'follow'`). */
  readonly url?: string;
  /** Whether the runtime followed redirects itself (only with `redirect: 'follow'`). */
  readonly redirected?: boolean;
  /** Response headers, read case-insensitively. */
  readonly headers: { get(name: string): string | null };
  /** The body as a byte stream; null when there is none. */
  readonly body: ReadableStream<Uint8Array> | null;
}

/**
 * A {@link FetchResponseLike} whose body may also be any async iterable of `Uint8Array` chunks (a Node stream, an async
 * generator): what a transport that is not fetch (undici's `request`, a Node `http` client) can hand over without
 * making a web stream of what it has. The engine reads both kinds the same way. An iterable body is released through
 * its iterator's `return` (not awaited: it should release at once, also while a read is pending); a rejected `next`
 * is a body error, classified like a web stream's; chunks are kept as given until the retrieval ends, so a transport
 * whose chunks are views of larger buffers should copy them.
 */
export interface AnyFetchResponseLike extends Omit<FetchResponseLike, 'body'> {
  /** The body as a web stream or an async iterable of chunks; null when there is none. */
  readonly body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
}

/** The request robotskit makes: an unconditional GET. */
export interface FetchRequestInit {
  /** Always `GET`, never conditional (no If-Modified-Since, no If-None-Match). */
  readonly method: 'GET';
  /** `user-agent` and the caller's extra headers. */
  readonly headers: Record<string, string>;
  /** `manual`, so each hop is seen; `follow` only after a browser's opaque redirect. */
  readonly redirect: 'manual' | 'follow';
  /** Aborted when a timeout runs out or the caller aborts. */
  readonly signal: AbortSignal;
}

/**
 * The `fetch` to use. The global `fetch` fits; so does a wrapper that adds a proxy, a dispatcher, an SSRF guard or
 * logging. To refuse a request (SSRF guard), throw an error carrying `kind: 'blocked'` (see {@link BlockedFetchError});
 * any error whose `kind` (or whose `cause`'s `kind`) is a {@link RetrievalErrorKind} is reported with that kind.
 */
export type FetchLike = (url: string, init: FetchRequestInit) => Promise<FetchResponseLike>;

/**
 * A `fetch` whose responses may have an async-iterable body ({@link AnyFetchResponseLike}). Every `fetch` option of the
 * engine takes one; a {@link FetchLike} is one.
 */
export type AnyFetchLike = (url: string, init: FetchRequestInit) => Promise<AnyFetchResponseLike>;

/** The clock, injected so tests and simulations control time. */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
}

/** `Date.now`. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * What an injected `fetch` throws to refuse a request, e.g. an SSRF guard refusing a private address. Reported as a
 * `blocked` error (disallow-all: never fail open).
 */
export class BlockedFetchError extends Error {
  /** What the retrieval reports: `blocked`. */
  readonly kind = 'blocked' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlockedFetchError';
  }
}
