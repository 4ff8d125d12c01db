/**
 * What a worker fetches a claimed file with: the engine's retrieval over the SSRF-guarded fetch (the service's), or
 * any function of the same shape (tests and embedders pass their own).
 */

import type { RetrievalResult } from 'robotskit/fetch';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { retrieveRobotsTxt } from '../net/robots-fetch.js';
import type { ClaimedFile } from '../storage/claim.js';

/**
 * Fetches one claimed file: the engine's `fetchRobotsTxt` (the service passes {@link workerRetrieval}). It must not
 * throw for what the network or a server does; a throw is a bug, recorded as a failed fetch (the engine's `unknown`).
 */
export type RobotsRetrieval = (
  file: ClaimedFile,
  context: { readonly signal: AbortSignal },
) => Promise<RetrievalResult>;

/** The workers' retrieval: the engine's, over the guarded fetch, for each claimed file. */
export function workerRetrieval(fetch: GuardedFetch, now: () => number): RobotsRetrieval {
  return (file, { signal }) => retrieveRobotsTxt(file.url, { fetch, now, signal });
}
