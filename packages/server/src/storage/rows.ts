/**
 * The one place where the engine's results become database rows and rows become the engine's inputs again. The
 * engine decides (retrieval, lint, availability timeline, refresh schedule); the service stores what it returns in
 * the engine's own words: a retrieval as a fetch row (its outcome and error as the engine gives them, the caching
 * headers as a lowercase map), a lint run as counts and stored diagnostics, an effective policy as the API's JSON.
 * Pure functions; the queries are in this folder's other modules.
 */

import { createHash } from 'node:crypto';
import type { RobotsTxt } from 'robotskit';
import {
  type AvailabilityOptions,
  type EffectivePolicy,
  type FetchObservation,
  type PolicyReason,
  type RetrievalError,
  type RetrievalOutcome,
  type RetrievalResult,
  refreshSchedule,
} from 'robotskit/fetch';
import { type Diagnostic, lint } from 'robotskit/lint';

/** SHA-256 of `bytes`, lowercase hex: the key of a stored body. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The engine's error of a fetch as stored (everything but what only lives in memory). */
export type StoredError = Pick<RetrievalError, 'kind' | 'message' | 'code' | 'phase'>;

/** The stored error columns of a fetch (`error_kind`, `error_code`, `error_phase`, `error_message`) as one error. */
export function storedErrorOf(row: {
  readonly error_kind: StoredError['kind'] | null;
  readonly error_code: string | null;
  readonly error_phase: StoredError['phase'] | null;
  readonly error_message: string | null;
}): StoredError | null {
  if (row.error_kind === null) return null;
  return {
    kind: row.error_kind,
    code: row.error_code,
    phase: row.error_phase ?? 'request',
    message: row.error_message ?? '',
  };
}

/** One redirect hop as stored. */
interface StoredRedirect {
  readonly url: string;
  readonly status: number;
}

/** One fetch as the service stores it (the columns of a `fetches` row, before ids). */
export interface FetchRecord {
  /** The engine's outcome: `rules` (a 2xx body), `allow-all` (no robots.txt), `disallow-all` (a failure). */
  readonly outcome: RetrievalOutcome;
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Final HTTP status, null when no response arrived. */
  readonly httpStatus: number | null;
  /** The bytes kept for `rules`; null otherwise. */
  readonly body: Uint8Array | null;
  /** SHA-256 of `body`, computed once here; null without a body. */
  readonly bodyHash: string | null;
  /** The response headers that matter, lowercase names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly redirects: readonly StoredRedirect[];
  /** The URL the answer came from, after redirects; null when no response arrived. */
  readonly finalUrl: string | null;
  /**
   * The engine's error, when the retrieval had one: its kind (`dns`, `timeout`, `blocked`…), the runtime's code
   * (`ENOTFOUND`, `FTP_550`; null when none), the phase and the message. An HTTP status is `httpStatus`, not an error.
   */
  readonly error: StoredError | null;
  /** Named durations in milliseconds (`total`, `headers`). */
  readonly timings: Readonly<Record<string, number>> | null;
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

/** The row of a body-less fetch: `outcome` at `startedAt`, no response headers. */
function emptyRecord(outcome: RetrievalOutcome, startedAt: number, finishedAt: number): FetchRecord {
  return {
    outcome,
    startedAt,
    finishedAt,
    httpStatus: null,
    body: null,
    bodyHash: null,
    headers: {},
    redirects: [],
    finalUrl: null,
    error: null,
    timings: null,
  };
}

/** The engine's retrieval result as a fetch row (the body hashed here, once). */
export function fetchRecordOf(result: RetrievalResult): FetchRecord {
  const headers: Record<string, string> = {};
  for (const [key, name] of HEADER_NAMES) {
    const value = result.headers[key];
    if (value !== null) headers[name] = value;
  }
  const { outcome } = result;
  const error: StoredError | null =
    result.error === null
      ? null
      : { kind: result.error.kind, message: result.error.message, code: result.error.code, phase: result.error.phase };
  const timings: Record<string, number> = { total: result.timings.totalMs };
  if (result.timings.headersMs !== null) timings.headers = result.timings.headersMs;
  const body = outcome === 'rules' ? (result.body ?? new Uint8Array()) : null;
  return {
    ...emptyRecord(outcome, result.fetchedAt, result.fetchedAt + result.timings.totalMs),
    httpStatus: result.status,
    body,
    bodyHash: body === null ? null : contentHash(body),
    headers,
    redirects: result.redirects.map((hop) => ({ url: hop.url, status: hop.status ?? 0 })),
    finalUrl: result.status === null ? null : result.finalUrl,
    error,
    timings,
  };
}

/**
 * The row of a retrieval that threw (a bug in it): a failed fetch of the engine's kind `unknown` (what a fetch threw
 * that nothing classifies), its message saying the retrieval failed; retried with backoff.
 */
export function failedRetrievalRecord(startedAt: number, finishedAt: number, error: unknown): FetchRecord {
  const message = error instanceof Error ? error.message : String(error);
  return {
    ...emptyRecord('disallow-all', startedAt, finishedAt),
    error: { kind: 'unknown', message: `the retrieval failed: ${message}`, code: null, phase: 'request' },
  };
}

/** The stored facts of one fetch the timeline needs. */
interface StoredFetchFacts {
  readonly fetchedAt: number;
  readonly outcome: RetrievalOutcome;
  readonly status: number | null;
  readonly errorKind: RetrievalError['kind'] | null;
  /** The error's code and phase when known: they word the policy's message (an FTP reply as FTP). */
  readonly errorCode?: string | null;
  readonly errorPhase?: RetrievalError['phase'] | null;
  /** Lowercase header names. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A stored fetch as the engine's timeline reads it. */
export function observationOf(facts: StoredFetchFacts): FetchObservation {
  const h = facts.headers;
  return {
    fetchedAt: facts.fetchedAt,
    outcome: facts.outcome,
    status: facts.status,
    error:
      facts.errorKind === null
        ? null
        : {
            kind: facts.errorKind,
            code: facts.errorCode ?? null,
            ...(facts.errorPhase == null ? {} : { phase: facts.errorPhase }),
          },
    headers: {
      cacheControl: h['cache-control'] ?? null,
      retryAfter: h['retry-after'] ?? null,
      date: h.date ?? null,
    },
  };
}

/**
 * When a file is fetched next after `row`, by the engine's `refreshSchedule`, for a file whose current run of failed
 * fetches began at `failingSince` (null when the fetch before did not fail): the engine counts the retry backoff from
 * there.
 */
export function nextFetchAt(row: FetchRecord, failingSince: number | null, options: AvailabilityOptions = {}): number {
  const latest = observationOf({
    fetchedAt: row.startedAt,
    outcome: row.outcome,
    status: row.httpStatus,
    errorKind: row.error?.kind ?? null,
    headers: row.headers,
  });
  return refreshSchedule([latest], { ...options, failingSince }).at;
}

/** Parses a stored header map, tolerating anything odd (an empty map then). */
export function headersFromJson(text: string | null): Record<string, string> {
  if (text === null) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}

/** A diagnostic as stored and served. */
export interface StoredDiagnostic {
  readonly code: string;
  readonly severity: Diagnostic['severity'];
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly fix: string | null;
}

/** Lint results for one body, stored with it (so each distinct body is linted once). */
export interface BodyAnalysis {
  readonly errors: number;
  readonly warnings: number;
  readonly diagnostics: readonly StoredDiagnostic[];
}

/**
 * Lints a body (bytes as fetched, or the file parsed from them) with the engine: the counts and the diagnostics as
 * stored (fixes by name only).
 */
export function analyzeBody(body: Uint8Array | RobotsTxt): BodyAnalysis {
  return storedAnalysis(lint(body));
}

/** The counts and stored form of a body's diagnostics (also for diagnostics computed in the lint thread). */
export function storedAnalysis(diagnostics: readonly Diagnostic[]): BodyAnalysis {
  let errors = 0;
  let warnings = 0;
  const stored = diagnostics.map((d): StoredDiagnostic => {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
    return {
      code: d.code,
      severity: d.severity,
      message: d.message,
      line: d.line,
      column: d.column,
      endLine: d.endLine,
      endColumn: d.endColumn,
      fix: d.fix?.description ?? null,
    };
  });
  return { errors, warnings, diagnostics: stored };
}

/**
 * What governs crawling of a file's origin now: the engine's `EffectivePolicy` over the file's stored history, with
 * the version whose rules apply instead of the fetch itself.
 */
export interface FilePolicy {
  /** The engine's mode: `rules` (the rules of `versionId` decide), `allow-all` or `disallow-all` (no rules apply). */
  readonly mode: RetrievalOutcome;
  /** Why, as the engine's stable code (`fetched`, `unreachable`, `last-good-version`…). */
  readonly reason: PolicyReason;
  /** Why, in words: "robots.txt unreachable since …: crawling stops for the first 12 h"… */
  readonly message: string;
  /** The version whose rules apply (the last good one while the file fails), or null. */
  readonly versionId: number | null;
  /** When the current state began (the first fetch of the latest run of same-outcome fetches), or null. */
  readonly since: number | null;
  /** Until when this holds without a new fetch (epoch ms), or null. */
  readonly until: number | null;
}

/** A stored fetch as the timeline reads it, with the version whose content it saw, when known. */
export interface ObservedFetch extends FetchObservation {
  readonly versionId: number | null;
}

/** The engine's policy of a file's history, with the version whose rules apply. */
export function filePolicyOf(policy: EffectivePolicy<ObservedFetch>): FilePolicy {
  return {
    mode: policy.mode,
    reason: policy.reason,
    message: policy.message,
    versionId: policy.mode === 'rules' ? (policy.source?.versionId ?? null) : null,
    since: policy.since,
    until: policy.until,
  };
}
