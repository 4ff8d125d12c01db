/**
 * The queries behind the report: a property's files with their last fetch, one file, its versions, one version's
 * content.
 */

import type { Kysely } from 'kysely';
import type { RetrievalErrorKind, RetrievalOutcome } from 'robotskit/fetch';
import type { StoredError } from './rows.js';
import type { HostSource, RobotsScheme, Schema } from './schema.js';

/** A file with what the report shows about it. */
export interface FileReportRow {
  readonly id: number;
  readonly url: string;
  readonly scheme: RobotsScheme;
  readonly host: string;
  readonly created_at: number;
  readonly next_fetch_at: number;
  readonly priority: number;
  readonly recrawl_requested_at: number | null;
  readonly leased_at: number | null;
  readonly lease_expires_at: number | null;
  readonly consecutive_failures: number;
  readonly failing_since: number | null;
  readonly allow_all_since: number | null;
  readonly last_fetch_id: number | null;
  readonly fetch_started_at: number | null;
  readonly fetch_finished_at: number | null;
  readonly fetch_outcome: RetrievalOutcome | null;
  readonly fetch_http_status: number | null;
  readonly fetch_size: number | null;
  readonly fetch_body_hash: string | null;
  readonly fetch_headers_json: string | null;
  readonly fetch_redirects_json: string | null;
  readonly fetch_final_url: string | null;
  readonly fetch_error_kind: RetrievalErrorKind | null;
  readonly fetch_error_code: string | null;
  readonly fetch_error_phase: StoredError['phase'] | null;
  readonly fetch_error_message: string | null;
  readonly fetch_timings_json: string | null;
  readonly lint_errors: number | null;
  readonly lint_warnings: number | null;
  readonly latest_version_id: number | null;
}

/** A file row in a property's list: the file plus the host it was listed under. */
export interface PropertyFileRow extends FileReportRow {
  readonly host_id: number;
  readonly host_source: HostSource;
  readonly host_rank: number;
}

function fileReportQuery(db: Kysely<Schema>) {
  return db
    .selectFrom('robots_files as f')
    .leftJoin('fetches as lf', 'lf.id', 'f.last_fetch_id')
    .leftJoin('bodies as b', 'b.hash', 'lf.body_hash')
    .select((eb) => [
      'f.id',
      'f.url',
      'f.scheme',
      'f.host',
      'f.created_at',
      'f.next_fetch_at',
      'f.priority',
      'f.recrawl_requested_at',
      'f.leased_at',
      'f.lease_expires_at',
      'f.consecutive_failures',
      'f.failing_since',
      'f.allow_all_since',
      'f.last_fetch_id',
      'lf.started_at as fetch_started_at',
      'lf.finished_at as fetch_finished_at',
      'lf.outcome as fetch_outcome',
      'lf.http_status as fetch_http_status',
      'lf.size as fetch_size',
      'lf.body_hash as fetch_body_hash',
      'lf.headers_json as fetch_headers_json',
      'lf.redirects_json as fetch_redirects_json',
      'lf.final_url as fetch_final_url',
      'lf.error_kind as fetch_error_kind',
      'lf.error_code as fetch_error_code',
      'lf.error_phase as fetch_error_phase',
      'lf.error_message as fetch_error_message',
      'lf.timings_json as fetch_timings_json',
      'b.lint_errors',
      'b.lint_warnings',
      eb
        .selectFrom('versions as v')
        .select((e) => e.fn.max('v.id').as('id'))
        .whereRef('v.file_id', '=', 'f.id')
        .as('latest_version_id'),
    ]);
}

/** Options of {@link listPropertyFiles}. */
interface PropertyFilesOptions {
  /**
   * Hosts shown, most important first (Search Console shows 20, so up to 40 files).
   * @default 20
   */
  readonly hostLimit?: number;
  /** Hide files that have been `allow-all` since before this time (the report drops them after 30 days). */
  readonly hideAllowAllBefore?: number;
}

/** A property's files: hosts by rank, https before http. */
export async function listPropertyFiles(
  db: Kysely<Schema>,
  propertyId: number,
  options: PropertyFilesOptions = {},
): Promise<PropertyFileRow[]> {
  const topHosts = db
    .selectFrom('hosts')
    .select('id')
    .where('property_id', '=', propertyId)
    .orderBy('rank')
    .orderBy('id')
    .limit(options.hostLimit ?? 20);
  let query = fileReportQuery(db)
    .innerJoin('host_files as hf', 'hf.file_id', 'f.id')
    .innerJoin('hosts as h', 'h.id', 'hf.host_id')
    .select(['h.id as host_id', 'h.source as host_source', 'h.rank as host_rank'])
    .where('h.property_id', '=', propertyId)
    .where('h.id', 'in', topHosts);
  const hideBefore = options.hideAllowAllBefore;
  if (hideBefore !== undefined) {
    query = query.where((eb) => eb.or([eb('f.allow_all_since', 'is', null), eb('f.allow_all_since', '>', hideBefore)]));
  }
  const rows = await query.orderBy('h.rank').orderBy('h.id').orderBy('f.scheme', 'desc').execute();
  return rows.map(normalise);
}

/** One file, or undefined. */
export async function getFileReport(db: Kysely<Schema>, fileId: number): Promise<FileReportRow | undefined> {
  const row = await fileReportQuery(db).where('f.id', '=', fileId).executeTakeFirst();
  return row === undefined ? undefined : normalise(row);
}

/** The properties that watch a file. */
export async function propertiesOfFile(db: Kysely<Schema>, fileId: number): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom('host_files as hf')
    .innerJoin('hosts as h', 'h.id', 'hf.host_id')
    .innerJoin('properties as p', 'p.id', 'h.property_id')
    .select(['p.id', 'p.name'])
    .where('hf.file_id', '=', fileId)
    .distinct()
    .orderBy('p.id')
    .execute();
}

/** A version as listed, with the error of the fetch that saw it first (null once that fetch is pruned). */
export interface VersionListRow {
  readonly id: number;
  readonly file_id: number;
  readonly fetch_id: number | null;
  readonly fetched_at: number;
  readonly outcome: RetrievalOutcome;
  readonly http_status: number | null;
  readonly size: number | null;
  readonly body_hash: string | null;
  readonly headers_json: string;
  readonly error_kind: RetrievalErrorKind | null;
  readonly error_code: string | null;
  readonly error_phase: StoredError['phase'] | null;
  readonly error_message: string | null;
}

/** A file's versions, newest first, each with the id of the version before it (null for the oldest kept). */
export async function listVersions(
  db: Kysely<Schema>,
  fileId: number,
  options: { limit?: number } = {},
): Promise<(VersionListRow & { previous_version_id: number | null })[]> {
  const rows = await db
    .selectFrom('versions as v')
    .leftJoin('fetches as f', 'f.id', 'v.fetch_id')
    .selectAll('v')
    .select((eb) => [
      'f.error_kind',
      'f.error_code',
      'f.error_phase',
      'f.error_message',
      eb
        .selectFrom('versions as p')
        .select((e) => e.fn.max('p.id').as('id'))
        .whereRef('p.file_id', '=', 'v.file_id')
        .whereRef('p.id', '<', 'v.id')
        .as('previous_version_id'),
    ])
    .where('v.file_id', '=', fileId)
    .orderBy('v.id', 'desc')
    .limit(options.limit ?? 1000)
    .execute();
  return rows.map((r) => ({
    ...r,
    size: r.size === null ? null : Number(r.size),
    error_kind: r.error_kind ?? null,
    error_code: r.error_code ?? null,
    error_phase: r.error_phase ?? null,
    error_message: r.error_message ?? null,
    previous_version_id: r.previous_version_id == null ? null : Number(r.previous_version_id),
  }));
}

/** A version with its body, the body's lint results, the error of the fetch that saw it first, and the version before. */
export interface StoredVersion extends VersionListRow {
  readonly content: Uint8Array | null;
  readonly lint_errors: number | null;
  readonly lint_warnings: number | null;
  readonly lint_json: string | null;
  readonly previous_version_id: number | null;
}

/** One version with its content bytes (null when the fetch had no body) and the previous version's id. */
export async function getVersion(db: Kysely<Schema>, versionId: number): Promise<StoredVersion | undefined> {
  const row = await db
    .selectFrom('versions as v')
    .leftJoin('bodies as b', 'b.hash', 'v.body_hash')
    .leftJoin('fetches as f', 'f.id', 'v.fetch_id')
    .selectAll('v')
    .select((eb) => [
      'b.content',
      'b.lint_errors',
      'b.lint_warnings',
      'b.lint_json',
      'f.error_kind',
      'f.error_code',
      'f.error_phase',
      'f.error_message',
      eb
        .selectFrom('versions as p')
        .select((e) => e.fn.max('p.id').as('id'))
        .whereRef('p.file_id', '=', 'v.file_id')
        .whereRef('p.id', '<', 'v.id')
        .as('previous_version_id'),
    ])
    .where('v.id', '=', versionId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    id: Number(row.id),
    size: row.size === null ? null : Number(row.size),
    content: row.content ?? null,
    lint_errors: row.lint_errors ?? null,
    lint_warnings: row.lint_warnings ?? null,
    lint_json: row.lint_json ?? null,
    error_kind: row.error_kind ?? null,
    error_code: row.error_code ?? null,
    error_phase: row.error_phase ?? null,
    error_message: row.error_message ?? null,
    previous_version_id: row.previous_version_id == null ? null : Number(row.previous_version_id),
  };
}

/** A version's body hash and headers (what a headline needs before it reads the body), or undefined. */
export function versionBodyFacts(db: Kysely<Schema>, versionId: number) {
  return db.selectFrom('versions').select(['body_hash', 'headers_json']).where('id', '=', versionId).executeTakeFirst();
}

/** A stored body's bytes, or undefined. */
export function getBody(db: Kysely<Schema>, hash: string): Promise<{ content: Uint8Array } | undefined> {
  return db.selectFrom('bodies').select('content').where('hash', '=', hash).executeTakeFirst();
}

/** The newest version of the file before `versionId`, optionally only good ones (not `disallow-all` failures). */
export async function versionBefore(
  db: Kysely<Schema>,
  fileId: number,
  versionId: number,
  goodOnly = false,
): Promise<number | null> {
  let query = db
    .selectFrom('versions')
    .select('id')
    .where('file_id', '=', fileId)
    .where('id', '<', versionId)
    .orderBy('id', 'desc')
    .limit(1);
  if (goodOnly) query = query.where('outcome', '!=', 'disallow-all');
  const row = await query.executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** The file's newest version that is not a failed (`disallow-all`) fetch: id, outcome and body hash, or undefined. */
export async function latestGoodVersion(
  db: Kysely<Schema>,
  fileId: number,
): Promise<{ id: number; outcome: RetrievalOutcome; bodyHash: string | null } | undefined> {
  const row = await db
    .selectFrom('versions')
    .select(['id', 'outcome', 'body_hash'])
    .where('file_id', '=', fileId)
    .where('outcome', '!=', 'disallow-all')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: Number(row.id), outcome: row.outcome, bodyHash: row.body_hash } : undefined;
}

/** A fetch as the timeline shows it. */
export interface FetchPointRow {
  readonly id: number;
  readonly started_at: number;
  readonly finished_at: number;
  readonly outcome: RetrievalOutcome;
  readonly http_status: number | null;
  readonly size: number | null;
  readonly error_kind: RetrievalErrorKind | null;
  readonly error_code: string | null;
  readonly error_phase: StoredError['phase'] | null;
  readonly error_message: string | null;
  /** The version this fetch started (its content differed from the fetch before), or null. */
  readonly version_id: number | null;
}

/** Options of {@link listFetches}. */
interface FetchListOptions {
  /**
   * At most this many, newest first.
   * @default 500
   */
  readonly limit?: number;
  /** Only fetches started at or after this time. */
  readonly since?: number;
  /** Only fetches with a smaller id (paging backwards). */
  readonly before?: number;
}

/** A file's fetch attempts, newest first, each with the version it started. */
export async function listFetches(
  db: Kysely<Schema>,
  fileId: number,
  options: FetchListOptions = {},
): Promise<FetchPointRow[]> {
  let query = db
    .selectFrom('fetches as x')
    .leftJoin('versions as v', 'v.fetch_id', 'x.id')
    .select([
      'x.id',
      'x.started_at',
      'x.finished_at',
      'x.outcome',
      'x.http_status',
      'x.size',
      'x.error_kind',
      'x.error_code',
      'x.error_phase',
      'x.error_message',
      'v.id as version_id',
    ])
    .where('x.file_id', '=', fileId);
  if (options.since !== undefined) query = query.where('x.started_at', '>=', options.since);
  if (options.before !== undefined) query = query.where('x.id', '<', options.before);
  const rows = await query
    .orderBy('x.id', 'desc')
    .limit(options.limit ?? 500)
    .execute();
  return rows.map((r) => ({
    ...r,
    size: r.size === null ? null : Number(r.size),
    version_id: r.version_id === null ? null : Number(r.version_id),
  }));
}

/** Aggregates come back as strings or bigints on some drivers; ids and sizes are plain numbers here. */
function normalise<T extends FileReportRow>(row: T): T {
  return {
    ...row,
    fetch_size: row.fetch_size === null ? null : Number(row.fetch_size),
    latest_version_id: row.latest_version_id == null ? null : Number(row.latest_version_id),
  };
}
