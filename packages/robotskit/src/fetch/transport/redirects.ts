/**
 * The engine's one HTTP transport: a GET that follows redirects by hand (every hop a separate call to the injected
 * `fetch`, so an SSRF guard sees each one), under a {@link Deadline} that holds even against a `fetch` that ignores
 * its signal. `fetchRobotsTxt` reads robots.txt over it, `httpGet` any file.
 */

import type { AnyFetchLike, AnyFetchResponseLike, FetchLike, RedirectHop, RetrievalError } from '../shared/types.js';
import { releaseBody } from './body.js';
import { type Deadline, Stop } from './deadline.js';
import { classifyFetchError } from './errors.js';

/** Google follows at least 5 redirects, then treats the robots.txt as not found. */
export const DEFAULT_MAX_REDIRECTS = 5;

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
