/**
 * When a file is fetched next, by the engine's `refreshSchedule`: a good answer (a body or a 404) is kept for its
 * cache lifetime (24 h, or its Cache-Control `max-age` within 5 min … 7 days); a failure (5xx, 429, network) is
 * retried after its Retry-After (within 1 min … 24 h), else on a doubling backoff counted from the first failure of
 * the run (10 min, or 2 min for a 503, up to 6 h, or 1 h for 503s).
 */

import { type AvailabilityOptions, type FetchObservation, refreshSchedule } from 'robotskit';
import type { ClaimedFile, RetrievalResult } from '../monitor/retrieval.js';
import { observationOf } from './observation.js';

/** Decides a file's next fetch time after `result`. */
export type FetchScheduler = (file: ClaimedFile, result: RetrievalResult) => number;

/** The next fetch time after `result`, for a file whose current run of failures began at `failingSince`. */
export function nextFetchByEngine(
  result: RetrievalResult,
  failingSince: number | null,
  options: AvailabilityOptions = {},
): number {
  const latest = observationOf({
    fetchedAt: result.startedAt,
    outcome: result.outcome,
    status: result.httpStatus,
    errorKind: result.error?.kind ?? null,
    headers: result.headers,
  });
  const history: FetchObservation[] = [];
  if (result.outcome === 'error' && failingSince !== null && failingSince < result.startedAt) {
    history.push({
      ...latest,
      fetchedAt: failingSince,
      status: null,
      headers: { cacheControl: null, retryAfter: null, date: null },
    });
  }
  history.push(latest);
  return refreshSchedule(history, options).at;
}

/** The scheduler plug-in. */
export function createEngineScheduler(options: AvailabilityOptions = {}): FetchScheduler {
  return (file, result) => nextFetchByEngine(result, file.failingSince, options);
}
