/**
 * The engine's retrieval (`fetchRobotsTxt`: Google's status classes, redirects followed by hand up to 5, 500 KiB cap,
 * timeouts, HTML detection) running over the service's SSRF-guarded fetch. Every hop is a separate call to that
 * fetch, so every hop's address is checked; a refused address becomes the engine's `blocked` error (disallow-all:
 * never fail open), stored as `address-refused`.
 */

import {
  BlockedFetchError,
  type RetrievalResult as EngineResult,
  type FetchLike,
  fetchRobotsTxt,
  type RetrievalTimeouts,
} from 'robotskit';
import type { RetrievalResult, RobotsRetrieval } from '../monitor/retrieval.js';
import { AddressRefusedError } from '../net/address-refused-error.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { storedOutcomeOf } from './observation.js';

/** The User-Agent the service sends. */
export const SERVICE_USER_AGENT = 'robotskit-server/0.1 (robots.txt report; +https://github.com/robotskit)';

/** Options of {@link createEngineRetrieval}. */
export interface EngineRetrievalOptions {
  /** The SSRF-guarded fetch. */
  readonly fetch: GuardedFetch;
  /** The clock, epoch ms. */
  readonly now: () => number;
  /**
   * The User-Agent header.
   * @default SERVICE_USER_AGENT
   */
  readonly userAgent?: string;
  readonly timeouts?: RetrievalTimeouts;
}

/** The guarded fetch as the engine's `FetchLike`, with address refusals reported as `blocked`. */
export function engineFetchOf(fetch: GuardedFetch): FetchLike {
  return async (url, init) => {
    try {
      return await fetch(url, init as RequestInit);
    } catch (error) {
      if (error instanceof AddressRefusedError) throw new BlockedFetchError(error.message, { cause: error });
      throw error;
    }
  };
}

/** Runs the engine's retrieval for `url` over the guarded fetch. */
export function retrieveWithEngine(
  url: string,
  options: EngineRetrievalOptions & { readonly signal?: AbortSignal },
): Promise<EngineResult> {
  return fetchRobotsTxt(url, {
    fetch: engineFetchOf(options.fetch),
    userAgent: options.userAgent ?? SERVICE_USER_AGENT,
    clock: { now: options.now },
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

const HEADER_NAMES = [
  ['cacheControl', 'cache-control'],
  ['contentType', 'content-type'],
  ['retryAfter', 'retry-after'],
  ['lastModified', 'last-modified'],
  ['etag', 'etag'],
  ['contentLength', 'content-length'],
  ['date', 'date'],
] as const;

/** The engine's result as the service stores it. */
export function storedResultOf(result: EngineResult): RetrievalResult {
  const headers: Record<string, string> = {};
  for (const [key, name] of HEADER_NAMES) {
    const value = result.headers[key];
    if (value !== null) headers[name] = value;
  }
  const outcome = storedOutcomeOf(result.outcome);
  let error: RetrievalResult['error'] = null;
  if (result.error !== null) {
    error = {
      kind: result.error.kind === 'blocked' ? 'address-refused' : result.error.kind,
      message: result.error.message,
    };
  } else if (outcome === 'error' && result.status !== null) {
    error = { kind: 'http-status', message: `HTTP ${result.status}` };
  }
  const timings: Record<string, number> = { total: result.timings.totalMs };
  if (result.timings.headersMs !== null) timings.headers = result.timings.headersMs;
  return {
    outcome,
    startedAt: result.fetchedAt,
    finishedAt: result.fetchedAt + result.timings.totalMs,
    httpStatus: result.status,
    body: outcome === 'fetched' ? (result.body ?? new Uint8Array()) : null,
    headers,
    redirects: result.redirects.map((hop) => ({ url: hop.url, status: hop.status ?? 0 })),
    finalUrl: result.status === null ? null : result.finalUrl,
    error,
    timings,
  };
}

/** The retrieval the workers run: the engine's, over the guarded fetch. */
export function createEngineRetrieval(options: EngineRetrievalOptions): RobotsRetrieval {
  return async (file, context) =>
    storedResultOf(await retrieveWithEngine(file.url, { ...options, signal: context.signal }));
}
