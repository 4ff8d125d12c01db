/**
 * Rows to API JSON: times as ISO strings, JSON columns parsed, unknowns as null (never a made-up zero).
 */

import { describeFetchOutcome } from 'robotskit/fetch';
import type { FetchPointRow, FileReportRow, PropertyFileRow, VersionListRow } from '../storage/report.js';
import type { EffectivePolicy } from '../storage/rows.js';
import type { FetchOutcome, HostRow, PropertyRow } from '../storage/schema.js';

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

/** A stored error kind as the engine names it (the service stores a refused address as `address-refused`). */
function engineErrorKind(kind: string): string {
  return kind === 'address-refused' ? 'blocked' : kind;
}

/**
 * A stored fetch's outcome in the engine's words (`host not found`, `server error (HTTP 503)`, `redirect loop`), the
 * same as the command line says; null for a fetch that got the file.
 */
export function fetchWords(
  outcome: FetchOutcome | null,
  httpStatus: number | null,
  errorKind: string | null,
  errorMessage: string | null,
): string | null {
  if (outcome === null || (outcome === 'fetched' && errorKind === null)) return null;
  return describeFetchOutcome({
    outcome: outcome === 'fetched' ? 'rules' : outcome === 'not-found' ? 'allow-all' : 'disallow-all',
    status: httpStatus,
    error: errorKind === null ? null : { kind: engineErrorKind(errorKind), message: errorMessage },
  }).summary;
}

/** Why the last fetch did not fetch the file, in words. */
function statusReason(row: FileReportRow): string | null {
  return fetchWords(row.fetch_outcome, row.fetch_http_status, row.fetch_error_kind, row.fetch_error_message);
}

/**
 * A file as listed. `now` decides whether a worker holds it at this moment (`fetchingSince`): a lease that has run
 * out belongs to a worker that is gone.
 */
export function fileJson(row: FileReportRow, policy: EffectivePolicy | null, now: number) {
  const leased = row.leased_at !== null && row.lease_expires_at !== null && row.lease_expires_at > now;
  return {
    id: row.id,
    url: row.url,
    scheme: row.scheme,
    host: row.host,
    status: row.fetch_outcome,
    statusReason: statusReason(row),
    httpStatus: row.fetch_http_status,
    lastCheckedAt: isoTime(row.fetch_started_at),
    nextCheckAt: isoTime(row.next_fetch_at),
    recrawlPending: row.recrawl_requested_at !== null,
    fetchingSince: leased ? isoTime(row.leased_at) : null,
    size: row.fetch_outcome === 'fetched' ? row.fetch_size : null,
    errors: row.fetch_outcome === 'fetched' ? row.lint_errors : null,
    warnings: row.fetch_outcome === 'fetched' ? row.lint_warnings : null,
    effectivePolicy: policy === null ? null : { ...policy, since: isoTime(policy.since), until: isoTime(policy.until) },
    latestVersionId: row.latest_version_id,
    notFoundSince: isoTime(row.not_found_since),
    failingSince: isoTime(row.failing_since),
  };
}

export function propertyFileJson(row: PropertyFileRow, policy: EffectivePolicy | null, now: number) {
  return { ...fileJson(row, policy, now), hostSource: row.host_source, hostRank: row.host_rank };
}

export function lastFetchJson(row: FileReportRow, content: Uint8Array | null) {
  if (row.last_fetch_id === null || row.fetch_outcome === null) return null;
  return {
    id: row.last_fetch_id,
    startedAt: isoTime(row.fetch_started_at as number),
    finishedAt: isoTime(row.fetch_finished_at as number),
    outcome: row.fetch_outcome,
    httpStatus: row.fetch_http_status,
    size: row.fetch_size,
    bodyHash: row.fetch_body_hash,
    headers: parseJson<Record<string, string>>(row.fetch_headers_json, {}),
    redirects: parseJson<{ url: string; status: number }[]>(row.fetch_redirects_json, []),
    finalUrl: row.fetch_final_url,
    error:
      row.fetch_error_kind === null ? null : { kind: row.fetch_error_kind, message: row.fetch_error_message ?? '' },
    summary: fetchWords(row.fetch_outcome, row.fetch_http_status, row.fetch_error_kind, row.fetch_error_message),
    timings: parseJson<Record<string, number> | null>(row.fetch_timings_json, null),
    content: content === null ? null : new TextDecoder().decode(content),
  };
}

export function versionJson(row: VersionListRow & { previous_version_id: number | null }) {
  return {
    id: row.id,
    fileId: row.file_id,
    fetchId: row.fetch_id,
    fetchedAt: isoTime(row.fetched_at),
    outcome: row.outcome,
    httpStatus: row.http_status,
    size: row.size,
    bodyHash: row.body_hash,
    headers: parseJson<Record<string, string>>(row.headers_json, {}),
    previousVersionId: row.previous_version_id,
    diffUrl:
      row.previous_version_id === null ? null : `/api/versions/${row.id}/diff?against=${row.previous_version_id}`,
  };
}

export function fetchPointJson(row: FetchPointRow) {
  return {
    id: row.id,
    startedAt: isoTime(row.started_at),
    finishedAt: isoTime(row.finished_at),
    outcome: row.outcome,
    httpStatus: row.http_status,
    size: row.size,
    error: row.error_kind === null ? null : { kind: row.error_kind, message: row.error_message ?? '' },
    summary: fetchWords(row.outcome, row.http_status, row.error_kind, row.error_message),
    versionId: row.version_id,
  };
}
