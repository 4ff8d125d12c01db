/**
 * Opening one sitemap file: manual redirects (every hop goes through the injected `fetch`), timeouts that hold even
 * against a `fetch` that ignores its signal, and the body as an async iterable of byte chunks that never throws.
 */

import { classifyFetchError, type FetchLike, type FetchResponseLike, type RetrievalError } from 'robotskit';

/** The User-Agent sent when the caller names none. */
export const DEFAULT_SITEMAP_USER_AGENT = 'robotskit-sitemaps/0.1 (sitemap reader)';

const ignore = (): void => {};

/** Runtimes fire a timer longer than 2^31 - 1 ms (about 24.8 days) at once; a longer wait waits this long. */
const MAX_TIMER_MS = 2_147_483_647;

/** Thrown inside a read when a timer or the caller's signal ended it. */
class Stopped extends Error {
  constructor(readonly reason: RetrievalError) {
    super(reason.message);
  }
}

/**
 * The timers and the caller's signal of one file. The total budget counts only the time spent waiting for the network
 * (headers and body chunks), not the time the consumer takes between entries: a walk is read at the consumer's pace,
 * and a slow consumer must not make a healthy server look slow.
 */
export class FileDeadline {
  reason: RetrievalError | null = null;
  readonly controller = new AbortController();
  private spent = 0;
  private readonly stopped: Promise<never>;
  private rejectStopped: (e: Stopped) => void = ignore;
  private readonly onAbort = () => this.stop({ kind: 'aborted', message: 'aborted', phase: 'request', code: null });

  constructor(
    private readonly totalMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.stopped = new Promise<never>((_, reject) => {
      this.rejectStopped = reject;
    });
    this.stopped.catch(ignore);
    if (signal?.aborted) this.onAbort();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  stop(reason: RetrievalError): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.rejectStopped(new Stopped(reason));
    this.controller.abort();
  }

  /**
   * Awaits `promise` unless `stepMs` pass, the file's network time reaches the total, or the caller aborts. Rejects
   * with the reason when stopped, so a `fetch` or stream that ignores the abort cannot hang the walk.
   */
  async step<T>(promise: Promise<T>, stepMs: number, what: string, phase: 'request' | 'body'): Promise<T> {
    promise.catch(ignore);
    if (this.reason !== null) throw new Stopped(this.reason);
    const budget = this.totalMs - this.spent;
    const total = budget <= stepMs;
    const wait = Math.max(0, Math.min(stepMs, budget, MAX_TIMER_MS));
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.stop({
          kind: 'timeout',
          message: total ? `not read within ${this.totalMs} ms` : `${what} within ${stepMs} ms`,
          phase,
          code: null,
        });
        reject(new Stopped(this.reason!));
      }, wait);
    });
    try {
      return await Promise.race([promise, timeout, this.stopped]);
    } catch (error) {
      if (this.reason !== null) throw new Stopped(this.reason);
      throw error;
    } finally {
      clearTimeout(timer);
      this.spent += Date.now() - started;
    }
  }

  dispose(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}

/** How to open a file. */
export interface OpenOptions {
  readonly fetch: FetchLike;
  readonly headers: Record<string, string>;
  readonly maxRedirects: number;
  readonly headersMs: number;
  readonly idleMs: number;
}

/** An opened file: either a 2xx response with its body, or why there is none. */
export type Opened =
  | {
      readonly ok: true;
      readonly finalUrl: string;
      readonly status: number;
      readonly contentType: string | null;
      /** The body's chunks; ends early (without throwing) on error, with the error in `bodyError()`. */
      readonly chunks: AsyncIterable<Uint8Array>;
      /** Why the body ended early; null while it has not. */
      readonly bodyError: () => RetrievalError | null;
      /** Stops reading (cancels the stream without waiting for it). */
      readonly cancel: () => void;
    }
  | {
      readonly ok: false;
      readonly finalUrl: string | null;
      readonly status: number | null;
      readonly error: RetrievalError;
    };

function cancelBody(response: FetchResponseLike): void {
  try {
    response.body?.cancel().catch(ignore);
  } catch {
    // Locked or closed: nothing to release.
  }
}

/** Resolves a `fetch` option (or the global one). */
export function resolveFetch(fetchImpl: FetchLike | undefined): FetchLike {
  if (fetchImpl !== undefined) {
    if (typeof fetchImpl !== 'function') throw new TypeError('options.fetch must be a function');
    return fetchImpl;
  }
  const global = (globalThis as { fetch?: unknown }).fetch;
  if (typeof global !== 'function') throw new TypeError('no global fetch in this runtime: pass options.fetch');
  return (url, init) => (global as FetchLike)(url, init);
}

/** GETs `url`, following redirects by hand. Never rejects. */
export async function openSitemap(url: string, options: OpenOptions, deadline: FileDeadline): Promise<Opened> {
  const visited = new Set([url]);
  let current = url;
  let hops = 0;
  for (;;) {
    let response: FetchResponseLike;
    try {
      response = await deadline.step(
        Promise.resolve().then(() =>
          options.fetch(current, {
            method: 'GET',
            headers: options.headers,
            redirect: 'manual',
            signal: deadline.controller.signal,
          }),
        ),
        options.headersMs,
        `no response headers from ${current}`,
        'request',
      );
    } catch (e) {
      return { ok: false, finalUrl: null, status: null, error: deadline.reason ?? classifyFetchError(e, 'request') };
    }
    const status = response.status;
    if (status >= 300 && status <= 399) {
      cancelBody(response);
      const location = response.headers.get('location');
      let next: URL | null = null;
      try {
        next = location === null ? null : new URL(location, current);
      } catch {
        next = null;
      }
      const fail = (kind: RetrievalError['kind'], message: string): Opened => ({
        ok: false,
        finalUrl: current,
        status,
        error: { kind, message, phase: 'request', code: null },
      });
      if (next === null || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
        return fail('invalid-url', `redirect ${status} without a usable Location`);
      }
      next.hash = '';
      if (visited.has(next.href)) return fail('redirect-loop', `redirect loop: ${next.href} was already requested`);
      if (++hops > options.maxRedirects)
        return fail('too-many-redirects', `more than ${options.maxRedirects} redirects`);
      visited.add(next.href);
      current = next.href;
      continue;
    }
    if (status < 200 || status > 299) {
      cancelBody(response);
      return {
        ok: false,
        finalUrl: current,
        status,
        error: { kind: 'protocol', message: `HTTP status ${status}`, phase: 'request', code: null },
      };
    }
    let bodyError: RetrievalError | null = null;
    const body = response.body;
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
    let done = false;
    const cancel = () => {
      if (done) return;
      done = true;
      try {
        reader?.cancel().catch(ignore);
      } catch {
        // Nothing left to release.
      }
      if (reader === null) cancelBody(response);
    };
    async function* chunks(): AsyncGenerator<Uint8Array> {
      if (body === null) return;
      try {
        reader = body.getReader();
        while (!done) {
          const { done: end, value } = await deadline.step(reader.read(), options.idleMs, 'no body data', 'body');
          if (end) {
            done = true;
            return;
          }
          if (value !== undefined && value.length > 0) yield value;
        }
      } catch (e) {
        bodyError = deadline.reason ?? classifyFetchError(e, 'body');
      } finally {
        cancel();
      }
    }
    return {
      ok: true,
      finalUrl: current,
      status,
      contentType: response.headers.get('content-type'),
      chunks: chunks(),
      bodyError: () => bodyError,
      cancel,
    };
  }
}
