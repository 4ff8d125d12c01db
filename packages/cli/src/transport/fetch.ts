/**
 * The `fetch` the network commands give the engine: `robotsRequest`, the engine's `AnyFetchLike` over the CLI's one
 * HTTP client (`http.ts`) and content decoder (`decode.ts`) for what the engine asks of it (GETs of http and https
 * URLs, each redirect answered rather than followed), and undici's `fetch` (`robotsFetch`) for anything else.
 * Retrieval itself (redirects, timeouts, size limits, what a status means) is the engine's.
 */

import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { AnyFetchLike, FetchLike, FetchResponseLike } from 'robotskit/fetch';
import { fetch as undiciFetch } from 'undici';
import { acceptEncoding, decodedBody } from './decode.js';
import { openGet } from './http.js';

/**
 * undici's `fetch`, as the engine's `fetch`: what {@link robotsRequest} hands over what it does not do itself.
 * undici's rather than Node 20's built-in `fetch`, an older undici whose global dispatcher keeps a connection pool
 * (about 20 KB) for every origin ever contacted, so a `batch` over many sites would grow by that much per site for
 * the whole run; undici 7 drops a pool once its connections are closed.
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

/** The URL when {@link robotsRequest} sends it itself; null when it goes to {@link robotsFetch}. */
function ownTarget(url: string, init: Parameters<AnyFetchLike>[1]): URL | null {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    // robotsFetch says why.
    return null;
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return null;
  if (target.port !== '' && BAD_PORTS.has(Number(target.port))) return null;
  if (init.method !== 'GET' || init.redirect === 'follow') return null;
  return target;
}

/**
 * {@link robotsFetch} with less work per request: Node's own HTTP client, for what the engine asks of its `fetch`.
 * (undici's `request`, used before, cost three times the CPU per robots.txt here: a pool and a client per origin, and
 * three error objects with stack traces per closed connection.) What fetch does besides is done the same way: its
 * default headers (`accept`, `accept-language`, `sec-fetch-mode`, `accept-encoding`), headers sent twice read as one
 * list (`a, b`), the body decoded as fetch decodes it (not for 1xx/204/205/304), the body read at the reader's pace
 * (as an async iterable, not a web stream), and fetch's errors: `fetch failed` with the cause, `terminated` for a
 * body that breaks off, the signal's reason once aborted. Anything else (another method or scheme,
 * `redirect: 'follow'`, a port fetch blocks) goes to {@link robotsFetch} itself.
 */
export const robotsRequest: AnyFetchLike = async (url, init) => {
  const target = ownTarget(url, init);
  if (target === null) return robotsFetch(url, init);
  const signal = init.signal;
  if (signal.aborted) throw signal.reason;
  const headers: Record<string, string> = {
    accept: '*/*',
    'accept-language': '*',
    'sec-fetch-mode': 'cors',
    'accept-encoding': acceptEncoding(target.protocol === 'https:'),
  };
  for (const [name, value] of Object.entries(init.headers)) headers[name.toLowerCase()] = value;
  let opened: Awaited<ReturnType<typeof openGet>>;
  try {
    opened = await openGet(target, headers, signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new TypeError('fetch failed', {
      cause: endedEarly(error, 'socket hang up') ? closedEarly('answering') : error,
    });
  }
  const answer = opened.answer;
  let distinct: NodeJS.Dict<string[]> | null = null;
  const get = (name: string): string | null => {
    // Node keeps only the first of some headers sent twice (content-type, location…); fetch lists them all.
    distinct ??= answer.headersDistinct;
    return distinct[name.toLowerCase()]?.join(', ') ?? null;
  };
  const status = answer.statusCode ?? 0;
  const head = { status, headers: { get }, type: 'basic' as const, url: target.href, redirected: false };
  if (NULL_BODY.has(status)) {
    answer.resume();
    return { ...head, body: null };
  }
  let body: Readable;
  try {
    body = decodedBody(answer, get('content-encoding'));
  } catch (error) {
    answer.destroy();
    throw new TypeError('fetch failed', { cause: error });
  }
  return { ...head, body: new NodeBody(body, signal, opened.connection) };
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
    private readonly body: Readable | IncomingMessage,
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
