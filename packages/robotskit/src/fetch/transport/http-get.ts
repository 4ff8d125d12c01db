/**
 * `httpGet`: any file over the engine's transport (the sitemaps package reads sitemaps with it), its body as chunks read
 * at the consumer's pace, the total timeout counting only the time spent waiting for the network.
 */

import { nonNegativeInteger, positiveMs } from '../shared/options.js';
import type { AnyFetchLike, AnyFetchResponseLike, RedirectHop, RetrievalError } from '../shared/types.js';
import { type BodyCursor, openBody } from './body.js';
import { Deadline, Stop } from './deadline.js';
import { classifyFetchError } from './errors.js';
import { cancelBody, DEFAULT_MAX_REDIRECTS, followRedirects, resolveFetch } from './redirects.js';

const ignore = (): void => {};

/** Timeouts of {@link httpGet}, in milliseconds. */
export interface HttpGetTimeouts {
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
   * The whole file: only the time spent waiting for the network counts (headers and body chunks), not the time the
   * consumer takes between chunks, so a slow consumer cannot make a healthy server look slow.
   * @default 30000
   */
  readonly total?: number;
}

/** Options of {@link httpGet}. */
export interface HttpGetOptions {
  /**
   * The `fetch` to use; every redirect hop is a separate call to it. Its bodies may be web streams or async iterables.
   * @default globalThis.fetch
   */
  readonly fetch?: AnyFetchLike;
  /** Request headers (`User-Agent`…). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Follow at most this many redirects.
   * @default 5
   */
  readonly maxRedirects?: number;
  readonly timeouts?: HttpGetTimeouts;
  /** Ends the request and the body (`aborted`). */
  readonly signal?: AbortSignal;
}

/** What {@link httpGet} opened: a 2xx response with its body, or why there is none. Call `close` when done. */
export type HttpGetResult =
  | {
      readonly ok: true;
      readonly finalUrl: string;
      readonly status: number;
      readonly headers: AnyFetchResponseLike['headers'];
      readonly redirects: readonly RedirectHop[];
      /** The body's chunks, read at the consumer's pace; ends early (without throwing) on error, see `bodyError`. */
      readonly chunks: AsyncIterable<Uint8Array>;
      /** Why the body ended early; null while it has not. */
      readonly bodyError: () => RetrievalError | null;
      /** Stops reading the body (cancels the stream without waiting for it) and releases the timers. */
      readonly close: () => void;
    }
  | {
      readonly ok: false;
      /** The URL last requested; null when the first request got no response. */
      readonly finalUrl: string | null;
      /** The status of the last response (a non-2xx, or a 3xx that could not be followed); null when none arrived. */
      readonly status: number | null;
      /** The headers of the last response (a non-2xx, or a 3xx not followed); null when none arrived. */
      readonly headers: AnyFetchResponseLike['headers'] | null;
      readonly redirects: readonly RedirectHop[];
      /** `protocol` for a non-2xx status (`HTTP status 404`); the network's or redirect's failure otherwise. */
      readonly error: RetrievalError;
      readonly close: () => void;
    };

/**
 * GETs any http(s) URL with the engine's transport: redirects followed by hand, timeouts that hold against a `fetch`
 * that ignores its signal, and the body as chunks read at the consumer's pace. Never rejects for what the network or
 * the server does (those are `ok: false` results, or `bodyError`); throws only for bad options.
 */
export async function httpGet(url: string, options: HttpGetOptions = {}): Promise<HttpGetResult> {
  const fetchImpl = resolveFetch<AnyFetchLike>(options.fetch);
  const t = options.timeouts ?? {};
  const headersMs = positiveMs(t.headers, 10_000, 'timeouts.headers');
  const idleMs = positiveMs(t.idle, 10_000, 'timeouts.idle');
  const totalMs = positiveMs(t.total, 30_000, 'timeouts.total');
  const maxRedirects = nonNegativeInteger(options.maxRedirects, DEFAULT_MAX_REDIRECTS, 'maxRedirects');
  let phase: 'request' | 'body' = 'request';
  const deadline = new Deadline(
    new AbortController(),
    { ms: totalMs, counts: 'waiting', message: `not read within ${totalMs} ms` },
    options.signal,
    () => phase,
  );
  const followed = await followRedirects(
    url,
    { fetch: fetchImpl, headers: options.headers ?? {}, maxRedirects, headersMs },
    deadline,
  );
  const { response, redirects } = followed;
  const release = () => deadline.dispose();
  if (followed.error !== null || response === null) {
    release();
    return {
      ok: false,
      finalUrl: response === null ? null : followed.url,
      status: response?.status ?? null,
      headers: response?.headers ?? null,
      redirects,
      error: followed.error ?? { kind: 'unknown', message: 'no response', phase: 'request', code: null },
      close: ignore,
    };
  }
  const status = response.status;
  if (status < 200 || status > 299) {
    cancelBody(response);
    release();
    return {
      ok: false,
      finalUrl: followed.url,
      status,
      headers: response.headers,
      redirects,
      error: { kind: 'protocol', message: `HTTP status ${status}`, phase: 'request', code: null },
      close: ignore,
    };
  }
  phase = 'body';
  let bodyError: RetrievalError | null = null;
  const body = response.body;
  let reader: BodyCursor | null = null;
  let done = false;
  const cancel = () => {
    if (done) return;
    done = true;
    if (reader !== null) reader.cancel();
    else cancelBody(response);
  };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (body === null) return;
    try {
      reader = openBody(body);
      while (!done) {
        const { done: end, value } = await deadline.step(reader.next(), idleMs, 'no body data');
        if (end) {
          done = true;
          return;
        }
        if (value !== undefined && value.length > 0) yield value;
      }
    } catch (e) {
      bodyError = e instanceof Stop ? e.error : (deadline.reason ?? classifyFetchError(e, 'body'));
    } finally {
      cancel();
    }
  }
  return {
    ok: true,
    finalUrl: followed.url,
    status,
    headers: response.headers,
    redirects,
    chunks: chunks(),
    bodyError: () => bodyError,
    close: () => {
      cancel();
      release();
    },
  };
}
