/**
 * The engine's retrieval (`fetchRobotsTxt`: status classes, redirects followed by hand, size cap, timeouts, HTML
 * detection) over the service's SSRF-guarded fetch. Every hop is a separate call to that fetch, so every hop's
 * address is checked; a refused address becomes the engine's `blocked` error (disallow-all: never fail open). `ftp://`
 * robots.txt goes through the guarded fetch's FTP client, under the same address rules.
 */

import {
  BlockedFetchError,
  type FetchLike,
  fetchRobotsTxt,
  type RetrievalResult,
  type RetrievalTimeouts,
} from 'robotskit/fetch';
import { AddressRefusedError } from './address-refused-error.js';
import type { GuardedFetch } from './guarded-fetch.js';

/** The User-Agent the service sends. */
export const SERVICE_USER_AGENT = 'robotskit-server/0.1 (robots.txt monitor)';

/** Options of {@link retrieveRobotsTxt}. */
interface ServiceRetrievalOptions {
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
  readonly signal?: AbortSignal;
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
export function retrieveRobotsTxt(url: string, options: ServiceRetrievalOptions): Promise<RetrievalResult> {
  return fetchRobotsTxt(url, {
    fetch: engineFetchOf(options.fetch),
    ...(options.fetch.ftp === undefined ? {} : { ftp: options.fetch.ftp }),
    userAgent: options.userAgent ?? SERVICE_USER_AGENT,
    clock: { now: options.now },
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
