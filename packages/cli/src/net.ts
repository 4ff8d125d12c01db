/**
 * What the network commands (`check`, `batch`, `audit`, `lint <url>`) share: the crawler named by `--ua`, the
 * retrieval options of `--timeout`, the transport the engine is given (Node's HTTP client; undici's `fetch` for the
 * rest), and robots.txt fetch outcomes in words and as JSON. Retrieval itself (redirects, timeouts, size limits, what
 * a status means) is the engine's (`fetchRobotsTxt`, `createRobotsClient`).
 */

import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';
import { RobotsUrlError, robotsTxtUrl } from 'robotskit';
import {
  type AnyFetchLike,
  describeFetchOutcome,
  type EffectivePolicy,
  type FetchLike,
  type FetchResponseLike,
  type RetrievalOptions,
  type RetrievalResult,
} from 'robotskit/fetch';
import { fetch as undiciFetch } from 'undici';
import { CLI_HOME } from './about.js';
import { nodeFtp } from './ftp.js';
import { CliError } from './io.js';

/** The `User-Agent` robotskit sends for its own requests (robots.txt and pages). */
export function cliUserAgent(version: string): string {
  return `robotskit/${version} (robots.txt checker; +${CLI_HOME})`;
}

/**
 * undici's `fetch`, as the engine's `fetch`: what {@link robotsRequest} (the network commands' transport) hands over
 * what it does not do itself. undici's rather than Node 20's built-in `fetch`, an older undici whose global
 * dispatcher keeps a connection pool (about 20 KB) for every origin ever contacted, so a `batch` over many sites
 * would grow by that much per site for the whole run; undici 7 drops a pool once its connections are closed.
 */
export const robotsFetch: FetchLike = (url, init) => undiciFetch(url, init) as unknown as Promise<FetchResponseLike>;

/**
 * The fetch standard's blocked ports (https://fetch.spec.whatwg.org/#bad-port): {@link robotsRequest} leaves them to
 * {@link robotsFetch}, which refuses them in its own words.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

const ignore = (): void => {};

/** Statuses whose responses have no body, for the fetch standard. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** `deflate` as fetch reads it: zlib-wrapped, or raw when the first byte says it is not (some servers send that). */
class Inflate extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | null = null;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.inner === null) {
      if (chunk.length === 0) {
        done();
        return;
      }
      const options = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
      this.inner = (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate(options) : zlib.createInflateRaw(options);
      this.inner.on('data', (data: Buffer) => this.push(data));
      this.inner.on('error', (error) => this.destroy(error));
    }
    this.inner.write(chunk, done);
  }
  override _flush(done: TransformCallback): void {
    if (this.inner === null) {
      done();
      return;
    }
    this.inner.once('end', () => done());
    this.inner.end();
  }
}

/** The decoders of a `Content-Encoding`, outermost last (as fetch: none when one of them is unknown). */
function decodersFor(contentEncoding: string): Transform[] {
  const codings = contentEncoding.toLowerCase().split(',');
  if (codings.length > 5) {
    throw new Error(`too many content-encodings in response: ${codings.length}, maximum allowed is 5`);
  }
  const decoders: Transform[] = [];
  const sync = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip(sync));
    else if (coding === 'deflate') decoders.push(new Inflate());
    else if (coding === 'br') {
      const flush = zlib.constants.BROTLI_OPERATION_FLUSH;
      decoders.push(zlib.createBrotliDecompress({ flush, finishFlush: flush }));
    } else return [];
  }
  return decoders;
}

/**
 * {@link robotsFetch} with less work per request: Node's own HTTP client (`node:http`, `node:https`; no Request,
 * Response or Headers objects, no fetch algorithm, no connection pool), for what the engine asks of its `fetch`: GETs
 * of http and https URLs, each redirect answered rather than followed (`redirect: 'manual'`). Every request has a
 * connection of its own (`agent: false`), closed once the answer is read: a robots.txt is fetched once per site, so
 * nothing is kept per site for the run. (undici's `request`, used before, cost three times the CPU per robots.txt
 * here: a pool and a client per origin, and three error objects with stack traces per closed connection.) What fetch
 * does besides is done the same way: its default headers (`accept`, `accept-language`, `sec-fetch-mode`,
 * `accept-encoding`), headers sent twice read as one list (`a, b`), the body decoded as fetch decodes it (gzip,
 * deflate, br; not for 1xx/204/205/304), the body read at the reader's pace (as an async iterable, not a web
 * stream), and fetch's errors: `fetch failed` with the cause, `terminated` for a body that breaks off, the signal's
 * reason once aborted. Anything else (another method or scheme, `redirect: 'follow'`, a port fetch blocks) goes to
 * {@link robotsFetch} itself.
 */
export const robotsRequest: AnyFetchLike = async (url, init) => {
  let target: URL | null = null;
  try {
    target = new URL(url);
  } catch {
    // robotsFetch says why.
  }
  const https = target?.protocol === 'https:';
  if (
    target === null ||
    (!https && target.protocol !== 'http:') ||
    (target.port !== '' && BAD_PORTS.has(Number(target.port))) ||
    init.method !== 'GET' ||
    init.redirect === 'follow'
  ) {
    return robotsFetch(url, init);
  }
  const signal = init.signal;
  if (signal.aborted) throw signal.reason;
  const headers: Record<string, string> = {
    accept: '*/*',
    'accept-language': '*',
    'sec-fetch-mode': 'cors',
    'accept-encoding': https ? 'br, gzip, deflate' : 'gzip, deflate',
  };
  for (const [name, value] of Object.entries(init.headers)) headers[name.toLowerCase()] = value;
  const options: RequestOptions = {
    protocol: target.protocol,
    // An IPv6 address without its brackets.
    hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
    path: `${target.pathname}${target.search}`,
    method: 'GET',
    headers,
    agent: false,
    signal,
  };
  if (target.port !== '') options.port = Number(target.port);
  let answer: IncomingMessage;
  // The connection's error after the answer (a reset while the body is read) says why the body broke off.
  const late: { error: unknown } = { error: null };
  try {
    answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = (https ? httpsRequest : httpRequest)(options, resolve);
      request.on('error', (error) => {
        late.error = error;
        reject(error);
      });
      request.end();
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new TypeError('fetch failed', {
      cause: endedEarly(error, 'socket hang up') ? closedEarly('answering') : error,
    });
  }
  let distinct: NodeJS.Dict<string[]> | null = null;
  const get = (name: string): string | null => {
    // Node keeps only the first of some headers sent twice (content-type, location…); fetch lists them all.
    distinct ??= answer.headersDistinct;
    return distinct[name.toLowerCase()]?.join(', ') ?? null;
  };
  const status = answer.statusCode ?? 0;
  let body: Readable = answer;
  if (NULL_BODY.has(status)) {
    answer.resume();
    return { status, headers: { get }, body: null, type: 'basic', url: target.href, redirected: false };
  }
  const coding = get('content-encoding');
  if (coding !== null) {
    let decoders: Transform[];
    try {
      decoders = decodersFor(coding);
    } catch (error) {
      answer.destroy();
      throw new TypeError('fetch failed', { cause: error });
    }
    if (decoders.length > 0) body = pipeline([answer, ...decoders], () => {}) as unknown as Readable;
  }
  return {
    status,
    headers: { get },
    body: new NodeBody(body, signal, late),
    type: 'basic',
    url: target.href,
    redirected: false,
  };
};

/**
 * Whether `error` is Node's for a connection that ended early, whatever ended it: `socket hang up` before any answer,
 * `aborted` in a body. Both say `ECONNRESET`, even for a plain close; a real reset says `read ECONNRESET` first.
 */
function endedEarly(error: unknown, message: 'socket hang up' | 'aborted'): boolean {
  return error instanceof Error && error.message === message && (error as { code?: unknown }).code === 'ECONNRESET';
}

/**
 * A connection the server closed before `what`, with Node's code for a stream that ended early, which the engine words
 * as it words fetch's `other side closed`: a connection closed by the server.
 */
function closedEarly(what: string): Error {
  return Object.assign(new Error(`the server closed the connection before ${what}`), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
}

/**
 * A Node stream as a body the engine reads (an async iterable: making a web stream of it cost about 30 µs a
 * response), with fetch's errors; each chunk copied (Node's are views of larger buffers, the whole read from the
 * socket). Its iterator's `return` destroys the stream at once, also while a read is pending.
 */
class NodeBody implements AsyncIterable<Uint8Array>, AsyncIterator<Uint8Array, undefined> {
  private chunks: AsyncIterator<Buffer> | null = null;
  constructor(
    private readonly body: Readable,
    private readonly signal: AbortSignal,
    private readonly connection: { readonly error: unknown },
  ) {
    // Its errors are read through the iterator; one after a cancel (the stream destroyed) is nobody's.
    body.on('error', ignore);
  }
  [Symbol.asyncIterator](): this {
    return this;
  }
  async next(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.chunks ??= this.body[Symbol.asyncIterator]();
    try {
      const step = await this.chunks.next();
      return step.done ? { done: true, value: undefined } : { done: false, value: new Uint8Array(step.value) };
    } catch (error) {
      if (this.signal.aborted) throw this.signal.reason;
      throw new TypeError('terminated', { cause: this.why(error) });
    }
  }
  /**
   * Why the body broke off: the connection's own error when it had one (`read ECONNRESET`, an answer the parser
   * refused); Node says `aborted` with `ECONNRESET` also for a connection the server closed without a reset, which is
   * worded as fetch words it, a connection closed by the server; else the stream's error (a decoding error).
   */
  private why(error: unknown): unknown {
    if (this.connection.error !== null) return this.connection.error;
    return endedEarly(error, 'aborted') ? closedEarly('the end of the body') : error;
  }
  async return(): Promise<IteratorResult<Uint8Array, undefined>> {
    this.body.destroy();
    return { done: true, value: undefined };
  }
}

export { type ResolvedCrawler, resolveCrawler, sayRewrites } from './crawler.js';

/** Reads `--timeout <seconds>` into milliseconds. */
export function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new CliError(`--timeout must be a positive number of seconds, not '${text}'`);
  return Math.max(1, Math.round(seconds * 1000));
}

/** Reads a positive integer option. */
export function parsePositive(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${name} must be a positive integer, not '${text}'`);
  return n;
}

/**
 * Retrieval options for one `--timeout`: it bounds the whole exchange, and each wait within it. Each robots.txt is
 * fetched once per run, so its connection is closed rather than kept alive: over thousands of sites, idle kept-alive
 * sockets would pile up (one per site for seconds each) and run into the open-file limit.
 */
export function retrievalOptions(
  timeoutMs: number,
  version: string,
): Omit<RetrievalOptions, 'fetch' | 'clock' | 'signal'> {
  return {
    userAgent: cliUserAgent(version),
    headers: { connection: 'close' },
    timeouts: { headers: timeoutMs, idle: timeoutMs, total: timeoutMs },
    ftp: nodeFtp,
  };
}

/** Checks a URL argument before anything is fetched: absolute, with a robots.txt (http, https, ftp). */
export function checkUrlArgument(text: string): void {
  try {
    robotsTxtUrl(text);
  } catch (error) {
    if (!(error instanceof RobotsUrlError)) throw error;
    if (error.code === 'unsupported-scheme') throw new CliError(`invalid URL '${text}': ${error.message}`);
    // Suggest a scheme only for what could be a host name (`example.com/x`), not for any text (`not a url`).
    const bare = text.trim();
    const hint = /^[a-z][a-z0-9+.-]*:/i.test(bare)
      ? ''
      : /\s/.test(bare)
        ? ': not a URL (one starts with https:// or http://)'
        : `: it has no scheme (did you mean 'https://${bare}'?)`;
    throw new CliError(`invalid URL '${text}'${hint}`);
  }
}

/**
 * True when the robots.txt could not be fetched: no HTTP answer at all (DNS, connection, TLS, timeout), or an answer
 * that broke off in its body (a reset, a stall, broken chunking). Not an HTTP status such as 503: that is an answer.
 */
export function isNetworkFailure(result: RetrievalResult): boolean {
  return result.outcome === 'disallow-all' && result.error !== null && result.error.kind !== 'aborted';
}

/**
 * Why a retrieval found no usable file, in one line; null for a 2xx with a body. The words are the engine's catalogue
 * ({@link describeFetchOutcome}), as the report service and its web UI show them.
 */
export function describeFetch(result: RetrievalResult, timeoutMs?: number): string | null {
  if (result.error === null && result.outcome === 'rules') return null;
  // The fetch standard's blocked ports (X11's 6000, SMTP's 25…): the fetch refuses them before connecting.
  if (result.error !== null && /\bbad port$/.test(result.error.message)) {
    const port = new URL(result.finalUrl).port;
    return `port ${port} is one the fetch standard blocks, so robotskit's fetch refuses it`;
  }
  const words = describeFetchOutcome(result, timeoutMs === undefined ? {} : { timeoutMs });
  // Callers say what a network failure means themselves ("until it can be, … disallowed").
  return isNetworkFailure(result) ? words.summary : `${words.summary} (${words.effect})`;
}

/** A retrieval as JSON: what was fetched, what came back, what it means. */
export interface FetchJson {
  readonly url: string;
  readonly finalUrl: string;
  readonly status: number | null;
  /** `rules`, `allow-all` or `disallow-all`. */
  readonly outcome: RetrievalResult['outcome'];
  readonly error: { readonly kind: string; readonly message: string } | null;
  readonly redirects: number;
  readonly bytes: number;
  readonly truncated: boolean;
  readonly html: boolean;
  readonly ms: number;
}

/** A retrieval as {@link FetchJson}. */
export function fetchJson(result: RetrievalResult): FetchJson {
  return {
    url: result.robotsUrl,
    finalUrl: result.finalUrl,
    status: result.status,
    outcome: result.outcome,
    error: result.error === null ? null : { kind: result.error.kind, message: result.error.message },
    redirects: result.redirects.length,
    bytes: result.size,
    truncated: result.truncated,
    html: result.html,
    ms: result.timings.totalMs,
  };
}

/** The effective policy as JSON. */
export function policyJson(policy: EffectivePolicy<RetrievalResult>): {
  mode: string;
  reason: string;
  message: string;
} {
  return { mode: policy.mode, reason: policy.reason, message: policy.message };
}
