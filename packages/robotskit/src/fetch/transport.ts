/**
 * The engine's one HTTP transport: a GET that follows redirects by hand (every hop a separate call to the injected
 * `fetch`, so an SSRF guard sees each one), under a {@link Deadline} that holds even against a `fetch` that ignores
 * its signal. `fetchRobotsTxt` reads robots.txt over it; `httpGet` is the same for any file (the sitemaps package
 * reads sitemaps with it), its body as chunks read at the consumer's pace.
 */

import { type BodyCursor, openBody, releaseBody } from './body.js';
import { Deadline, Stop } from './deadline.js';
import { classifyFetchError } from './errors.js';
import type { AnyFetchLike, AnyFetchResponseLike, FetchLike, RedirectHop, RetrievalError } from './types.js';

const ignore = (): void => {};

/** Resolves a `fetch` option: the one given, else the runtime's global `fetch`. */
export function resolveFetch<F extends AnyFetchLike = FetchLike>(fetchImpl: F | undefined): F {
  if (fetchImpl !== undefined) {
    if (typeof fetchImpl !== 'function') throw new TypeError('options.fetch must be a function');
    return fetchImpl;
  }
  const global = (globalThis as { fetch?: unknown }).fetch;
  if (typeof global !== 'function') throw new TypeError('no global fetch in this runtime: pass options.fetch');
  return ((url, init) => (global as FetchLike)(url, init)) as FetchLike as F;
}

/** Releases a response's body without waiting for it. */
export function cancelBody(response: AnyFetchResponseLike): void {
  releaseBody(response.body);
}

/** The next URL of a redirect, or the reason it cannot be followed. */
function redirectTarget(location: string | null, base: string, status: number): { url: string } | RetrievalError {
  const fail = (message: string): RetrievalError => ({ kind: 'invalid-url', message, phase: 'request', code: null });
  if (location === null || location.trim() === '') return fail(`redirect ${status} without a Location header`);
  let next: URL;
  try {
    next = new URL(location, base);
  } catch {
    return fail(`redirect ${status} to an unparseable Location: ${JSON.stringify(location.slice(0, 200))}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    return fail(`redirect ${status} to an unsupported scheme: ${JSON.stringify(next.href.slice(0, 200))}`);
  }
  next.hash = '';
  return { url: next.href };
}

/** How {@link followRedirects} sends its requests. */
export interface RedirectOptions {
  readonly fetch: AnyFetchLike;
  readonly headers: Readonly<Record<string, string>>;
  readonly maxRedirects: number;
  /** Time allowed for each request's response headers. */
  readonly headersMs: number;
  /** Told when each response's headers arrive. */
  readonly onHeaders?: () => void;
}

/** Where a chain of redirects ended. */
export interface RedirectsFollowed {
  /** The URL last requested. */
  readonly url: string;
  /** Its response (any non-3xx status; or the 3xx that could not be followed); null when none arrived. */
  readonly response: AnyFetchResponseLike | null;
  /** The hops followed, in order (the last one is the refused hop when the chain was cut). */
  readonly redirects: readonly RedirectHop[];
  /**
   * Why the chain ended without a final answer: a network failure or a timeout (`response` null), or a redirect that
   * could not be followed (`invalid-url`, `redirect-loop`, `too-many-redirects`; `response` is that 3xx).
   */
  readonly error: RetrievalError | null;
}

/**
 * GETs `url`, following redirects by hand up to `maxRedirects` (across hosts and schemes, loops detected). Browsers
 * hide redirects from `redirect: 'manual'` (an opaque redirect); the request is then repeated with `redirect: 'follow'`
 * and the browser follows the chain itself (one hop with a null status, pointing at the final URL). Never rejects.
 */
export async function followRedirects(
  url: string,
  options: RedirectOptions,
  deadline: Deadline,
): Promise<RedirectsFollowed> {
  const redirects: RedirectHop[] = [];
  const visited = new Set([url]);
  let current = url;
  const request = (redirect: 'manual' | 'follow') =>
    deadline.step(
      Promise.resolve().then(() =>
        options.fetch(current, { method: 'GET', headers: options.headers, redirect, signal: deadline.abortSignal }),
      ),
      options.headersMs,
      `no response headers from ${current}`,
    );
  for (;;) {
    let response: AnyFetchResponseLike;
    try {
      response = await request('manual');
      if (response.type === 'opaqueredirect') {
        cancelBody(response);
        response = await request('follow');
        const landed = typeof response.url === 'string' && response.url !== '' ? response.url : current;
        redirects.push({ url: current, status: null, location: landed });
        current = landed;
      }
    } catch (e) {
      // A hop that fails reports no status: the previous hop's redirect is not the answer.
      const error = e instanceof Stop ? e.error : classifyFetchError(e, 'request');
      return { url: current, response: null, redirects, error };
    }
    options.onHeaders?.();
    const status = response.status;
    if (status < 300 || status > 399) return { url: current, response, redirects, error: null };
    cancelBody(response);
    const end = (error: RetrievalError): RedirectsFollowed => ({ url: current, response, redirects, error });
    const target = redirectTarget(response.headers.get('location'), current, status);
    if (!('url' in target)) {
      redirects.push({ url: current, status, location: null });
      return end(target);
    }
    redirects.push({ url: current, status, location: target.url });
    if (visited.has(target.url)) {
      return end({
        kind: 'redirect-loop',
        message: `redirect loop: ${target.url} was already requested`,
        phase: 'request',
        code: null,
      });
    }
    if (redirects.length > options.maxRedirects) {
      return end({
        kind: 'too-many-redirects',
        message: `more than ${options.maxRedirects} redirects`,
        phase: 'request',
        code: null,
      });
    }
    visited.add(target.url);
    current = target.url;
  }
}

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
      readonly redirects: readonly RedirectHop[];
      /** `protocol` for a non-2xx status (`HTTP status 404`); the network's or redirect's failure otherwise. */
      readonly error: RetrievalError;
      readonly close: () => void;
    };

function positiveMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a positive number of milliseconds`);
  }
  return value;
}

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
  const maxRedirects = options.maxRedirects ?? 5;
  if (!Number.isInteger(maxRedirects) || maxRedirects < 0) {
    throw new RangeError('maxRedirects must be a non-negative integer');
  }
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
