/**
 * A retrieval in the words of Search Console's robots.txt report (seed 003): "Fetched", "Not fetched – Not found
 * (404)", "Not fetched – any other reason", with the reason. For reports and command output.
 */

import type { RetrievalResult } from '../shared/types.js';
import { describeFetchOutcome } from './outcome-words.js';

/** The report's fetch status of a robots.txt. */
export interface FetchStatus {
  /**
   * `fetched`: a 2xx answer (its rules apply); `not-found`: 404 or 410 (no robots.txt); `error`: anything else (other
   * 4xx, 429, 5xx, network failures, redirects that lead nowhere).
   */
  readonly status: 'fetched' | 'not-found' | 'error';
  /** Why it was not fetched, in the words of {@link describeFetchOutcome} (`server error (HTTP 503)`, `connection refused`); null when fetched. */
  readonly reason: string | null;
}

/**
 * The fetch status of a retrieval as the robots.txt report shows it. Note that `error` does not mean "disallow all":
 * a 403 is an `error` here and `allow-all` for crawling ({@link RetrievalResult.outcome} decides crawling).
 * @example fetchStatusOf(result) // { status: 'error', reason: 'server error (HTTP 503)' }
 */
export function fetchStatusOf(result: Pick<RetrievalResult, 'outcome' | 'status' | 'error'>): FetchStatus {
  if (result.error === null && result.outcome === 'rules') return { status: 'fetched', reason: null };
  const reason = describeFetchOutcome(result).summary;
  // FTP's "no such file" (see retrieval/ftp.ts) is the 404 of FTP.
  if (result.outcome === 'allow-all' && result.error?.code === 'FTP_550') return { status: 'not-found', reason };
  if (result.error === null && (result.status === 404 || result.status === 410)) return { status: 'not-found', reason };
  return { status: 'error', reason };
}
