/**
 * How long a fetched robots.txt stays fresh, and how soon to retry a failed fetch.
 *
 * Google caches robots.txt for up to 24 hours, lengthened or shortened by `Cache-Control: max-age`, and retries server
 * errors (503 "relatively often") until it gets an answer. The bounds below keep a site's headers from making a
 * crawler re-fetch robots.txt before every page (`max-age=0`) or trust a copy for a year (`max-age=31536000`, common on
 * CDNs that serve every file alike).
 */

import { nonNegativeMs } from '../shared/options.js';
import { DAY, HOUR, MINUTE } from '../shared/periods.js';
import type { RetrievalHeaders } from '../shared/types.js';
import { parseCacheControl, parseRetryAfter } from '../transport/http-headers.js';

/** Bounds of the cache lifetime of a fetched robots.txt (a `rules` or `allow-all` outcome), in milliseconds. */
export interface CacheOptions {
  /**
   * Lifetime when the response has no usable `max-age`.
   * @default 86400000 (24 h)
   */
  readonly defaultTtl?: number;
  /**
   * Shortest lifetime, whatever the headers say. Also the lifetime of a `no-cache` or `no-store` response.
   * @default 300000 (5 min)
   */
  readonly minTtl?: number;
  /**
   * Longest lifetime, whatever the headers say.
   * @default 604800000 (7 days)
   */
  readonly maxTtl?: number;
}

/** How failed fetches (a `disallow-all` outcome) are retried, in milliseconds. */
export interface RetryOptions {
  /**
   * Delay after the first failure. Later delays double: each is as long as the failures have lasted so far.
   * @default 600000 (10 min)
   */
  readonly firstDelay?: number;
  /**
   * Delay after the first 503 (Service Unavailable), which Google retries more often.
   * @default 120000 (2 min)
   */
  readonly firstDelay503?: number;
  /**
   * Longest delay between retries.
   * @default 21600000 (6 h)
   */
  readonly maxDelay?: number;
  /**
   * Longest delay between retries while the server answers 503.
   * @default 3600000 (1 h)
   */
  readonly maxDelay503?: number;
  /**
   * Shortest delay, also when `Retry-After` asks for less.
   * @default 60000 (1 min)
   */
  readonly minDelay?: number;
  /**
   * Longest wait a `Retry-After` may impose; a longer one is cut to this.
   * @default 86400000 (24 h)
   */
  readonly maxRetryAfter?: number;
}

/** Where a cache lifetime came from. */
export type CacheLifetimeSource =
  /** No `max-age` (or an invalid one): `defaultTtl`. */
  | 'default'
  /** `max-age`, within the bounds. */
  | 'max-age'
  /** `no-cache`: as short as allowed (`minTtl`). */
  | 'no-cache'
  /** `no-store`: as short as allowed (`minTtl`). */
  | 'no-store';

/** How long a fetched robots.txt stays fresh. */
export interface CacheLifetime {
  /** Milliseconds after the fetch. */
  readonly ttl: number;
  readonly source: CacheLifetimeSource;
  /** True when the header asked for a lifetime outside `[minTtl, maxTtl]` and was cut to the bound. */
  readonly clamped: boolean;
}

/** How soon to retry a failed fetch. */
export interface RetryDelay {
  /** Milliseconds after the failed fetch. */
  readonly delay: number;
  /** `retry-after`: the response's `Retry-After` (within bounds); `backoff`: the doubling schedule. */
  readonly source: 'retry-after' | 'backoff';
}

const ms = nonNegativeMs;

/** Cache options with defaults applied and checked. */
export function resolveCacheOptions(options: CacheOptions = {}): Required<CacheOptions> {
  const minTtl = ms(options.minTtl, 5 * MINUTE, 'cache.minTtl');
  const maxTtl = ms(options.maxTtl, 7 * DAY, 'cache.maxTtl');
  if (minTtl > maxTtl) throw new RangeError('cache.minTtl must not exceed cache.maxTtl');
  return { defaultTtl: ms(options.defaultTtl, DAY, 'cache.defaultTtl'), minTtl, maxTtl };
}

/** Retry options with defaults applied and checked. */
export function resolveRetryOptions(options: RetryOptions = {}): Required<RetryOptions> {
  return {
    firstDelay: ms(options.firstDelay, 10 * MINUTE, 'retry.firstDelay'),
    firstDelay503: ms(options.firstDelay503, 2 * MINUTE, 'retry.firstDelay503'),
    maxDelay: ms(options.maxDelay, 6 * HOUR, 'retry.maxDelay'),
    maxDelay503: ms(options.maxDelay503, HOUR, 'retry.maxDelay503'),
    minDelay: ms(options.minDelay, MINUTE, 'retry.minDelay'),
    maxRetryAfter: ms(options.maxRetryAfter, DAY, 'retry.maxRetryAfter'),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/**
 * How long a fetched robots.txt stays fresh: `max-age` when the response has one, within `[minTtl, maxTtl]`; else
 * `defaultTtl` (24 h, still within the bounds).
 *
 * `no-cache` and `no-store` give `minTtl` (5 min), not zero. Read literally they would make a crawler fetch robots.txt
 * again before every page it fetches, doubling its load on the site; a crawler has to keep the rules it obeys, and
 * Google keeps them too. So both mean "as short as allowed". The HTTP `Expires` header is ignored, as Google documents
 * only `max-age`.
 */
export function cacheLifetime(
  result: { readonly headers: Pick<RetrievalHeaders, 'cacheControl'> },
  options: CacheOptions = {},
): CacheLifetime {
  const o = resolveCacheOptions(options);
  const directives = parseCacheControl(result.headers.cacheControl);
  if (directives.noStore) return { ttl: o.minTtl, source: 'no-store', clamped: false };
  if (directives.noCache) return { ttl: o.minTtl, source: 'no-cache', clamped: false };
  if (directives.maxAge !== null) {
    const asked = directives.maxAge * 1000;
    const ttl = clamp(asked, o.minTtl, o.maxTtl);
    return { ttl, source: 'max-age', clamped: ttl !== asked };
  }
  return { ttl: clamp(o.defaultTtl, o.minTtl, o.maxTtl), source: 'default', clamped: false };
}

/**
 * How soon to retry after a failed fetch (a `disallow-all` outcome).
 *
 * A `Retry-After` (seconds or HTTP-date) is honoured within `[minDelay, maxRetryAfter]`. Otherwise the delay doubles:
 * `firstDelay` (or `firstDelay503` for a 503) after the first failure, then as long as the failures have lasted, up to
 * `maxDelay` (or `maxDelay503` for a 503). The doubling is computed from the time of the first failure of the current
 * run, so no retry counter has to be stored.
 * @param failure The failed fetch.
 * @param failingSince When the current run of failures began (the first failure's `fetchedAt`).
 */
export function retryDelay(
  failure: {
    readonly fetchedAt: number;
    readonly status: number | null;
    readonly headers: Pick<RetrievalHeaders, 'retryAfter' | 'date'>;
  },
  failingSince: number,
  options: RetryOptions = {},
): RetryDelay {
  const o = resolveRetryOptions(options);
  const asked = parseRetryAfter(failure.headers.retryAfter, failure.fetchedAt, failure.headers.date);
  if (asked !== null)
    return { delay: clamp(asked, o.minDelay, Math.max(o.minDelay, o.maxRetryAfter)), source: 'retry-after' };
  const is503 = failure.status === 503;
  const first = is503 ? o.firstDelay503 : o.firstDelay;
  const max = is503 ? o.maxDelay503 : o.maxDelay;
  const lasted = Math.max(0, failure.fetchedAt - failingSince);
  return { delay: clamp(Math.max(first, lasted), o.minDelay, Math.max(o.minDelay, max)), source: 'backoff' };
}
