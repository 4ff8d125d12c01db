/**
 * Reading a robots.txt from a URL for `robotskit lint`, with the global `fetch`: http and https only, redirects
 * followed (at most 5, as Google does), one timeout for the whole exchange, and the body cut after 512,000 bytes
 * (what Google parses) plus one byte, to know whether there was more.
 *
 * Deliberately small and separate: the engine is getting its own retrieval (status classes, caching, the
 * availability timeline), and `lint` will switch to it.
 */

import { DEFAULT_MAX_BYTES } from 'robotskit';
import { CliError } from './io.js';

/** What was fetched. */
export interface FetchedRobots {
  /** The URL the body came from, after redirects. */
  readonly url: string;
  readonly status: number;
  /** At most `maxBytes + 1` bytes of the body. */
  readonly bytes: Uint8Array;
  /** True when the body was longer than `maxBytes` (and reading stopped). */
  readonly truncated: boolean;
}

/** Options of {@link fetchRobotsTxt}. */
export interface FetchOptions {
  /** For the whole exchange, redirects and body included. */
  readonly timeoutMs: number;
  /** @default 512000 */
  readonly maxBytes?: number;
  /** @default 5 */
  readonly maxRedirects?: number;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_HEADERS_OVERFLOW: 'response headers too large',
};

/** A one-line reason for a failed fetch: undici wraps the real cause in `TypeError: fetch failed`. */
function describeNetworkError(error: unknown): string {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in NETWORK_ERRORS) return NETWORK_ERRORS[code]!;
    if (e.cause === undefined) break;
    e = e.cause;
  }
  const last = e instanceof Error ? e.message : String(e);
  return last.split('\n')[0] ?? 'network error';
}

function describeStatus(status: number): string {
  if (status === 429 || status >= 500)
    return `HTTP ${status}: a server error (Google treats the site as fully disallowed until the file can be fetched)`;
  if (status >= 400) return `HTTP ${status}: no robots.txt there (Google treats that as "crawl everything")`;
  return `HTTP ${status}: unexpected status`;
}

/** Checks that a URL can be fetched by `lint`: absolute, http or https. */
export function robotsUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`invalid URL '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`cannot fetch '${text}': only http and https URLs are supported`);
  }
  return url;
}

async function readBody(response: Response, limit: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  if (response.body !== null) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
      if (total > limit) {
        truncated = true;
        await reader.cancel().catch(() => {});
        break;
      }
    }
  }
  const bytes = new Uint8Array(Math.min(total, limit + 1));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
    if (at === bytes.length) break;
  }
  return { bytes, truncated };
}

/**
 * Fetches a robots.txt. Throws a {@link CliError} (one line, exit code 2) for anything but a 2xx response with a
 * body: network errors, timeouts, too many redirects, error statuses.
 */
export async function fetchRobotsTxt(start: URL, options: FetchOptions): Promise<FetchedRobots> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? 5;
  const doFetch = options.fetch ?? globalThis.fetch;
  const controller = new AbortController();
  const seconds = options.timeoutMs / 1000;
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  let url = start;
  try {
    for (let hops = 0; ; hops++) {
      let response: Response;
      try {
        response = await doFetch(url, {
          redirect: 'manual',
          signal: controller.signal,
          headers: {
            'user-agent': 'robotskit-lint (+https://github.com/robotskit/robotskit)',
            accept: 'text/plain, */*',
          },
        });
      } catch (error) {
        if (controller.signal.aborted)
          throw new CliError(`cannot fetch '${url.href}': no response within ${seconds} s`);
        throw new CliError(`cannot fetch '${url.href}': ${describeNetworkError(error)}`, 2, { cause: error });
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => {});
        if (hops >= maxRedirects)
          throw new CliError(`cannot fetch '${start.href}': more than ${maxRedirects} redirects`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new CliError(`cannot fetch '${url.href}': redirect to an invalid URL '${location}'`);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new CliError(`cannot fetch '${url.href}': redirect to a non-http(s) URL '${next.href}'`);
        }
        url = next;
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel().catch(() => {});
        throw new CliError(`cannot lint '${url.href}': ${describeStatus(response.status)}`);
      }
      try {
        const { bytes, truncated } = await readBody(response, maxBytes);
        return { url: url.href, status: response.status, bytes, truncated };
      } catch (error) {
        if (controller.signal.aborted)
          throw new CliError(`cannot fetch '${url.href}': no complete response within ${seconds} s`);
        throw new CliError(`cannot fetch '${url.href}': ${describeNetworkError(error)}`, 2, { cause: error });
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
