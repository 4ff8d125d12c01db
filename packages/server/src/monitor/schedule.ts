/**
 * When a file is fetched next. A successful answer (a body or a 404) is kept for its cache lifetime: 24 hours unless
 * the retrieval reports a Cache-Control lifetime, which is honoured within bounds. Failures are retried sooner, with
 * exponential backoff, and a server's Retry-After is honoured within the same bounds.
 */

import type { RetrievalResult } from './retrieval.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Scheduling knobs; every field has a default. */
export interface SchedulePolicy {
  /**
   * Cache lifetime when the response gives none.
   * @default 24 hours
   */
  readonly defaultLifetimeMs: number;
  /**
   * Shortest lifetime accepted from Cache-Control (a `max-age=0` file is not fetched every minute).
   * @default 1 hour
   */
  readonly minLifetimeMs: number;
  /**
   * Longest lifetime accepted from Cache-Control.
   * @default 7 days
   */
  readonly maxLifetimeMs: number;
  /**
   * First retry delay after a failure; doubles with each further failure in a row.
   * @default 5 minutes
   */
  readonly retryBaseMs: number;
  /**
   * Longest retry delay.
   * @default 6 hours
   */
  readonly retryMaxMs: number;
}

/** The defaults. */
export const DEFAULT_SCHEDULE: SchedulePolicy = {
  defaultLifetimeMs: 24 * HOUR,
  minLifetimeMs: HOUR,
  maxLifetimeMs: 7 * 24 * HOUR,
  retryBaseMs: 5 * MINUTE,
  retryMaxMs: 6 * HOUR,
};

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * The next fetch time after `result`. `failuresBefore` is the count of failures in a row before this fetch.
 */
export function nextFetchTime(
  result: Pick<RetrievalResult, 'outcome' | 'finishedAt' | 'cacheLifetimeMs' | 'retryAfterMs'>,
  failuresBefore: number,
  policy: SchedulePolicy = DEFAULT_SCHEDULE,
): number {
  if (result.outcome !== 'error') {
    const lifetime =
      result.cacheLifetimeMs === undefined || !Number.isFinite(result.cacheLifetimeMs)
        ? policy.defaultLifetimeMs
        : clamp(result.cacheLifetimeMs, policy.minLifetimeMs, policy.maxLifetimeMs);
    return result.finishedAt + lifetime;
  }
  const failures = failuresBefore + 1;
  const backoff = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** Math.min(failures - 1, 30));
  const delay =
    result.retryAfterMs !== undefined && Number.isFinite(result.retryAfterMs)
      ? clamp(result.retryAfterMs, policy.retryBaseMs, policy.retryMaxMs)
      : backoff;
  return result.finishedAt + delay;
}
