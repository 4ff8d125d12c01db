/**
 * The one place where the engine's results become database rows and rows become the engine's inputs again. The
 * engine decides (retrieval, lint, availability timeline, refresh schedule); the service stores what it returns:
 * a retrieval as a fetch row (`rules` / `allow-all` / `disallow-all` stored as `fetched` / `not-found` / `error`, the
 * caching headers as a lowercase map, an address refusal as `address-refused`), a lint run as counts and stored
 * diagnostics, an effective policy as the API's JSON. Pure functions; the queries are in this folder's other modules.
 */

import { createHash } from 'node:crypto';
import type { RobotsTxt } from 'robotskit';
import {
  type AvailabilityOptions,
  type EffectivePolicy as EnginePolicy,
  type FetchObservation,
  type RetrievalErrorKind,
  type RetrievalOutcome,
  type RetrievalResult,
  refreshSchedule,
} from 'robotskit/fetch';
import { type Diagnostic, lint } from 'robotskit/lint';
import type { FetchOutcome } from './schema.js';

/** SHA-256 of `bytes`, lowercase hex: the key of a stored body. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The engine's outcome of a stored one. */
export function engineOutcomeOf(outcome: FetchOutcome): RetrievalOutcome {
  return outcome === 'fetched' ? 'rules' : outcome === 'not-found' ? 'allow-all' : 'disallow-all';
}

/** The stored outcome of an engine one. */
export function storedOutcomeOf(outcome: RetrievalOutcome): FetchOutcome {
  return outcome === 'rules' ? 'fetched' : outcome === 'allow-all' ? 'not-found' : 'error';
}

/** One redirect hop as stored. */
export interface StoredRedirect {
  readonly url: string;
  readonly status: number;
}

/** One fetch as the service stores it (the columns of a `fetches` row, before ids). */
export interface FetchRow {
  /** `fetched`: a body was received (2xx, after redirects); `not-found`: a 4xx; `error`: anything else. */
  readonly outcome: FetchOutcome;
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Final HTTP status, null when no response arrived. */
  readonly httpStatus: number | null;
  /** The bytes kept for `fetched`; null otherwise. */
  readonly body: Uint8Array | null;
  /** SHA-256 of `body`, computed once here; null without a body. */
  readonly bodyHash: string | null;
  /** The response headers that matter, lowercase names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly redirects: readonly StoredRedirect[];
  /** The URL the answer came from, after redirects; null when no response arrived. */
  readonly finalUrl: string | null;
  /** Why it failed: a stable kebab-case kind (`dns`, `timeout`, `http-status`, `address-refused`…) and words. */
  readonly error: { readonly kind: string; readonly message: string } | null;
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
function emptyRow(outcome: FetchOutcome, startedAt: number, finishedAt: number): FetchRow {
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
export function fetchRowOf(result: RetrievalResult): FetchRow {
  const headers: Record<string, string> = {};
  for (const [key, name] of HEADER_NAMES) {
    const value = result.headers[key];
    if (value !== null) headers[name] = value;
  }
  const outcome = storedOutcomeOf(result.outcome);
  let error: FetchRow['error'] = null;
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
  const body = outcome === 'fetched' ? (result.body ?? new Uint8Array()) : null;
  return {
    ...emptyRow(outcome, result.fetchedAt, result.fetchedAt + result.timings.totalMs),
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

/** The row of a retrieval that threw (a bug in it): a failed fetch of kind `retrieval-failed`, retried with backoff. */
export function failedRetrievalRow(startedAt: number, finishedAt: number, error: unknown): FetchRow {
  return {
    ...emptyRow('error', startedAt, finishedAt),
    error: { kind: 'retrieval-failed', message: error instanceof Error ? error.message : String(error) },
  };
}

/** The stored facts of one fetch the timeline needs. */
export interface StoredFetchFacts {
  readonly fetchedAt: number;
  readonly outcome: FetchOutcome;
  readonly status: number | null;
  readonly errorKind: string | null;
  /** Lowercase header names. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A stored fetch as the engine's timeline reads it. */
export function observationOf(facts: StoredFetchFacts): FetchObservation {
  const h = facts.headers;
  return {
    fetchedAt: facts.fetchedAt,
    outcome: engineOutcomeOf(facts.outcome),
    status: facts.status,
    // Only `aborted` changes what the timeline does; other kinds are carried for its messages.
    error: facts.errorKind === null ? null : { kind: facts.errorKind as RetrievalErrorKind },
    headers: {
      cacheControl: h['cache-control'] ?? null,
      retryAfter: h['retry-after'] ?? null,
      date: h.date ?? null,
    },
  };
}

/**
 * When a file is fetched next after `row`, by the engine's `refreshSchedule`, for a file whose current run of failed
 * fetches began at `failingSince` (null when the fetch before did not fail).
 */
export function nextFetchAt(row: FetchRow, failingSince: number | null, options: AvailabilityOptions = {}): number {
  const latest = observationOf({
    fetchedAt: row.startedAt,
    outcome: row.outcome,
    status: row.httpStatus,
    errorKind: row.error?.kind ?? null,
    headers: row.headers,
  });
  const history: FetchObservation[] = [];
  if (row.outcome === 'error' && failingSince !== null && failingSince < row.startedAt) {
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

/** What governs crawling of a file's origin now, as the API shows it. */
export interface EffectivePolicy {
  /** `conditional`: the rules of `versionId` decide; `allow-all` / `disallow-all`: no rules apply. */
  readonly policy: 'allow-all' | 'disallow-all' | 'conditional';
  /** Why, as the engine's stable code (`fetched`, `unreachable`, `last-good-version`…). */
  readonly code: string;
  /** Why, in words: "robots.txt unreachable since …: crawling stops for the first 12 h"… */
  readonly reason: string;
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

/** The engine's policy as the API shows it. */
export function policyJsonOf(policy: EnginePolicy<ObservedFetch>): EffectivePolicy {
  return {
    policy: policy.mode === 'rules' ? 'conditional' : policy.mode,
    code: policy.reason,
    reason: policy.message,
    versionId: policy.mode === 'rules' ? (policy.source?.versionId ?? null) : null,
    since: policy.since,
    until: policy.until,
  };
}
