/**
 * Rows to API JSON: times as ISO strings, JSON columns parsed, unknowns as null (never a made-up zero).
 */

import { DEFAULT_MAX_BYTES } from 'robotskit';
import { type FetchStatus, fetchStatusOf, type RetrievalOutcome, statusLabel } from 'robotskit/fetch';
import type { FetchPointRow, FileReportRow, PropertyFileRow, VersionListRow } from '../storage/report.js';
import { type FilePolicy, type StoredError, storedErrorOf } from '../storage/rows.js';
import type { HostRow, PropertyRow } from '../storage/schema.js';

export function isoTime(ms: number): string;
export function isoTime(ms: number | null): string | null;
export function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Parses stored JSON text, `fallback` when it is null or not JSON. */
export function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function propertyJson(row: PropertyRow, counts: { hostCount: number; fileCount: number }) {
  return { id: row.id, kind: row.kind, name: row.name, createdAt: isoTime(row.created_at), ...counts };
}

export function hostJson(row: HostRow) {
  return { id: row.id, host: row.host, source: row.source, rank: row.rank };
}

/** The stored facts of one fetch the report status is read from. */
interface StoredFacts {
  readonly outcome: RetrievalOutcome;
  readonly http_status: number | null;
  readonly error_kind: StoredError['kind'] | null;
  readonly error_code: string | null;
  readonly error_phase: StoredError['phase'] | null;
  readonly error_message: string | null;
}

/**
 * The report status of a stored fetch (`fetched`, `not-found`, `error`, and why in the engine's words), by the
 * engine's `fetchStatusOf` on the facts stored as the engine gave them: the same answer as for the live retrieval.
 */
export function reportStatusOf(facts: StoredFacts): FetchStatus {
  return fetchStatusOf({ outcome: facts.outcome, status: facts.http_status, error: storedErrorOf(facts) });
}

/** A stored fetch's status as its protocol says it (`HTTP 503`, `FTP 530`), by the engine's `statusLabel`. */
export function replyOf(facts: StoredFacts | null): string | null {
  return facts === null ? null : statusLabel({ status: facts.http_status, error: storedErrorOf(facts) });
}

/** A stored fetch's error as the API shows it: the engine's kind and code, and the runtime's message. */
function errorJson(facts: StoredFacts) {
  const error = storedErrorOf(facts);
  return error === null ? null : { kind: error.kind, code: error.code, message: error.message };
}

/** The last fetch of a file row as stored facts, or null before the first fetch. */
export function lastFetchFacts(row: FileReportRow): StoredFacts | null {
  if (row.fetch_outcome === null) return null;
  return {
    outcome: row.fetch_outcome,
    http_status: row.fetch_http_status,
    error_kind: row.fetch_error_kind,
    error_code: row.fetch_error_code,
    error_phase: row.fetch_error_phase,
    error_message: row.fetch_error_message,
  };
}

/**
 * A file as listed. `now` decides whether a worker holds it at this moment (`fetchingSince`): a lease that has run
 * out belongs to a worker that is gone.
 */
export function fileJson(row: FileReportRow, policy: FilePolicy | null, now: number) {
  const leased = row.leased_at !== null && row.lease_expires_at !== null && row.lease_expires_at > now;
  const facts = lastFetchFacts(row);
  const status = facts === null ? null : reportStatusOf(facts);
  const rules = row.fetch_outcome === 'rules';
  return {
    id: row.id,
    url: row.url,
    scheme: row.scheme,
    host: row.host,
    status: status?.status ?? null,
    statusReason: status?.reason ?? null,
    httpStatus: row.fetch_http_status,
    reply: replyOf(facts),
    lastCheckedAt: isoTime(row.fetch_started_at),
    nextCheckAt: isoTime(row.next_fetch_at),
    recrawlPending: row.recrawl_requested_at !== null,
    fetchingSince: leased ? isoTime(row.leased_at) : null,
    size: rules ? row.fetch_size : null,
    errors: rules ? row.lint_errors : null,
    warnings: rules ? row.lint_warnings : null,
    effectivePolicy: policy === null ? null : { ...policy, since: isoTime(policy.since), until: isoTime(policy.until) },
    latestVersionId: row.latest_version_id,
    allowAllSince: isoTime(row.allow_all_since),
    failingSince: isoTime(row.failing_since),
  };
}

export function propertyFileJson(row: PropertyFileRow, policy: FilePolicy | null, now: number) {
  return { ...fileJson(row, policy, now), hostSource: row.host_source, hostRank: row.host_rank };
}

export function lastFetchJson(row: FileReportRow, content: Uint8Array | null) {
  const facts = lastFetchFacts(row);
  if (row.last_fetch_id === null || facts === null) return null;
  const status = reportStatusOf(facts);
  return {
    id: row.last_fetch_id,
    startedAt: isoTime(row.fetch_started_at as number),
    finishedAt: isoTime(row.fetch_finished_at as number),
    outcome: facts.outcome,
    status: status.status,
    httpStatus: row.fetch_http_status,
    reply: replyOf(facts),
    size: row.fetch_size,
    bodyHash: row.fetch_body_hash,
    headers: parseJson<Record<string, string>>(row.fetch_headers_json, {}),
    redirects: parseJson<{ url: string; status: number }[]>(row.fetch_redirects_json, []),
    finalUrl: row.fetch_final_url,
    error: errorJson(facts),
    summary: status.reason,
    timings: parseJson<Record<string, number> | null>(row.fetch_timings_json, null),
    content: content === null ? null : new TextDecoder().decode(content),
  };
}

export function versionJson(row: VersionListRow & { previous_version_id: number | null }) {
  const status = reportStatusOf(row);
  return {
    id: row.id,
    fileId: row.file_id,
    fetchId: row.fetch_id,
    fetchedAt: isoTime(row.fetched_at),
    outcome: row.outcome,
    status: status.status,
    summary: status.reason,
    httpStatus: row.http_status,
    reply: replyOf(row),
    size: row.size,
    truncated: row.outcome === 'rules' && row.size !== null && row.size >= DEFAULT_MAX_BYTES,
    bodyHash: row.body_hash,
    headers: parseJson<Record<string, string>>(row.headers_json, {}),
    previousVersionId: row.previous_version_id,
    diffUrl:
      row.previous_version_id === null ? null : `/api/versions/${row.id}/diff?against=${row.previous_version_id}`,
  };
}

export function fetchPointJson(row: FetchPointRow) {
  const status = reportStatusOf(row);
  return {
    id: row.id,
    startedAt: isoTime(row.started_at),
    finishedAt: isoTime(row.finished_at),
    outcome: row.outcome,
    status: status.status,
    httpStatus: row.http_status,
    reply: replyOf(row),
    size: row.size,
    error: errorJson(row),
    summary: status.reason,
    versionId: row.version_id,
  };
}
