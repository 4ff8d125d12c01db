/**
 * What a worker runs for a claimed robots.txt file, and what it gets back. The engine's retrieval (issue 4: status
 * classes, redirects, size cap, timeouts, cache lifetime) plugs in here as a {@link RobotsRetrieval}; the worker stores
 * whatever it returns. This file is the contract between the two: it knows nothing of HTTP semantics.
 */

import type { FetchOutcome } from '../db/schema.js';

/** The file a worker has claimed. */
export interface ClaimedFile {
  readonly id: number;
  /** `scheme://host[:port]/robots.txt`. */
  readonly url: string;
  /** Fencing token of this claim; the fetch is recorded only while it still holds. */
  readonly leaseToken: string;
  readonly leaseExpiresAt: number;
  /** Failed fetches in a row before this one. */
  readonly consecutiveFailures: number;
  /** When the current run of failed fetches began, null when the last fetch did not fail. */
  readonly failingSince: number | null;
}

/** One redirect hop followed. */
export interface RedirectHop {
  readonly url: string;
  readonly status: number;
}

/** What one attempt to fetch a robots.txt file produced. */
export interface RetrievalResult {
  /**
   * `fetched`: a body was received (2xx, after redirects); `not-found`: 404 or 410 (the report's "Not found (404)");
   * `error`: anything else (other statuses, network failures, refused addresses, too many redirects).
   */
  readonly outcome: FetchOutcome;
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Final HTTP status, null when no response arrived. */
  readonly httpStatus: number | null;
  /** The bytes kept (after the size cap) for `fetched`; null otherwise. */
  readonly body: Uint8Array | null;
  /** The response headers that matter, lowercase names (content-type, cache-control, etag, last-modified…). */
  readonly headers: Readonly<Record<string, string>>;
  readonly redirects: readonly RedirectHop[];
  /** The URL the body came from, after redirects; null when nothing was fetched. */
  readonly finalUrl: string | null;
  /** Why it failed: a stable kebab-case kind (`dns`, `timeout`, `http-status`, `address-refused`…) and words. */
  readonly error: { readonly kind: string; readonly message: string } | null;
  /** Named durations in milliseconds (`total`, `firstByte`…). */
  readonly timings?: Readonly<Record<string, number>>;
  /** How long the result may be cached (Cache-Control max-age as the engine reads it); the scheduler bounds it. */
  readonly cacheLifetimeMs?: number;
  /** A server-requested delay before retrying (Retry-After), for failures. */
  readonly retryAfterMs?: number;
}

/** Context passed to a retrieval. */
export interface RetrievalContext {
  /** Aborted when the worker stops; a retrieval should give up promptly. */
  readonly signal: AbortSignal;
}

/**
 * Fetches one robots.txt file. Must not throw for anything the network or the server does (those are `error`
 * results); a throw is treated as a bug and recorded as an `error` fetch of kind `retrieval-failed`.
 */
export type RobotsRetrieval = (file: ClaimedFile, context: RetrievalContext) => Promise<RetrievalResult>;

/** Lint results for one body, stored with the content (so each distinct body is linted once). */
export interface BodyAnalysis {
  readonly errors: number;
  readonly warnings: number;
  /** The diagnostics themselves, stored as JSON for the report. */
  readonly diagnostics: unknown;
}

/** Lints a body the first time it is seen (issue 3's linter plugs in here). */
export type BodyAnalyzer = (body: Uint8Array) => Promise<BodyAnalysis> | BodyAnalysis;
