/**
 * The tables as Kysely sees them. Column types work on both SQLite and PostgreSQL: times are epoch milliseconds in
 * 64-bit integers, bodies are bytes (BLOB / bytea), structured values are JSON text, flags are integers.
 */

import type { Generated, Selectable } from 'kysely';
import type { RetrievalError, RetrievalErrorKind, RetrievalOutcome } from 'robotskit/fetch';
import type { AlertKind, AlertSeverity } from './alert-kinds.js';

/** Epoch milliseconds. */
type EpochMs = number;

/** What a property is: a whole domain, or one origin given as a host-level URL prefix. */
export type PropertyKind = 'domain' | 'url-prefix';

/** Why a host belongs to a property; the report shows hosts by rank (lower is more important). */
export type HostSource = 'property' | 'www' | 'user' | 'sitemap';

export interface PropertiesTable {
  id: Generated<number>;
  kind: PropertyKind;
  /** Canonical form: `example.com` (punycode) or `https://example.com/` (origin plus `/`). */
  name: string;
  created_at: EpochMs;
}

export interface HostsTable {
  id: Generated<number>;
  property_id: number;
  /** The URL host: ASCII hostname, with the port when it is not the scheme's default. */
  host: string;
  source: HostSource;
  /** Importance within the property: lower is more important; the report shows the first 20. */
  rank: number;
  created_at: EpochMs;
}

/** The schemes a robots.txt is read over: http and https, and ftp as Google reads it. */
export type RobotsScheme = 'http' | 'https' | 'ftp';

export interface RobotsFilesTable {
  id: Generated<number>;
  /** `scheme://host[:port]/robots.txt`, unique: one row per origin, shared by every property that watches it. */
  url: string;
  scheme: RobotsScheme;
  host: string;
  created_at: EpochMs;
  /** Due when this has passed. */
  next_fetch_at: EpochMs;
  /** 0 for a requested recrawl (the front of the queue), 1 for scheduled fetches. */
  priority: number;
  recrawl_requested_at: EpochMs | null;
  lease_owner: string | null;
  /** Fencing token of the current claim: a fetch is recorded only while the token still matches. */
  lease_token: string | null;
  leased_at: EpochMs | null;
  lease_expires_at: EpochMs | null;
  /** The newest recorded fetch (kept by pruning). */
  last_fetch_id: number | null;
  /** Failed fetches in a row (drives the retry backoff). */
  consecutive_failures: number;
  /** Start of the current run of `disallow-all` outcomes (failures), null when the last fetch did not fail. */
  failing_since: EpochMs | null;
  /** Start of the current run of `allow-all` outcomes (no robots.txt): the report hides such a file after 30 days. */
  allow_all_since: EpochMs | null;
}

export interface HostFilesTable {
  host_id: number;
  file_id: number;
}

export interface BodiesTable {
  /** SHA-256 of the content, lowercase hex. Content is stored once however many fetches return it. */
  hash: string;
  content: Uint8Array;
  size: number;
  created_at: EpochMs;
  /** Lint results of this content; null until a linter has looked at it. */
  lint_errors: number | null;
  lint_warnings: number | null;
  lint_json: string | null;
}

export interface FetchesTable {
  id: Generated<number>;
  file_id: number;
  started_at: EpochMs;
  finished_at: EpochMs;
  /** The engine's outcome: what the fetch means for crawling. */
  outcome: RetrievalOutcome;
  http_status: number | null;
  /** Bytes of the body kept, null when nothing was fetched. */
  size: number | null;
  body_hash: string | null;
  /** `sha256:<hash>` for `rules`, else the outcome: a new version starts where this changes. */
  content_key: string;
  /** JSON object: the response headers that matter (content-type, cache-control, last-modified, etag…). */
  headers_json: string;
  /** JSON array of `{ url, status }`, one per redirect hop followed. */
  redirects_json: string;
  final_url: string | null;
  /** The engine's error, when the retrieval had one: its kind, the runtime's code (`ENOTFOUND`, `FTP_550`), phase. */
  error_kind: RetrievalErrorKind | null;
  error_code: string | null;
  error_phase: RetrievalError['phase'] | null;
  error_message: string | null;
  /** JSON object of named durations in milliseconds (dns, connect, firstByte, total…), or null. */
  timings_json: string | null;
  worker: string | null;
}

export interface VersionsTable {
  id: Generated<number>;
  file_id: number;
  /** The fetch that saw this content first; null once pruning removed that fetch (the version stays). */
  fetch_id: number | null;
  fetched_at: EpochMs;
  outcome: RetrievalOutcome;
  http_status: number | null;
  size: number | null;
  body_hash: string | null;
  headers_json: string;
}

export interface AlertsTable {
  id: Generated<number>;
  property_id: number | null;
  file_id: number | null;
  kind: AlertKind;
  severity: AlertSeverity;
  /** What changed, in words. */
  message: string;
  details_json: string | null;
  version_id: number | null;
  previous_version_id: number | null;
  created_at: EpochMs;
}

export interface WebhooksTable {
  id: Generated<number>;
  /** Null: alerts of every property. */
  property_id: number | null;
  url: string;
  secret: string | null;
  /** JSON array of alert kinds (`AlertKind`), or null for all. */
  kinds_json: string | null;
  created_at: EpochMs;
  disabled_at: EpochMs | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  alert_id: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: EpochMs;
  lease_owner: string | null;
  lease_expires_at: EpochMs | null;
  last_error: string | null;
  delivered_at: EpochMs | null;
}

/** How a version's share of sitemap URLs was measured (see `storage/sitemap-shares.ts`). */
export type SitemapShareStatus = 'measured' | 'partial' | 'no-sitemap' | 'no-urls' | 'unreachable' | 'failed';

/** The share of the site's sitemap URLs a version blocks per watched crawler, measured when it was recorded. */
export interface SitemapSharesTable {
  /** The version (rules only); the row goes with it. */
  version_id: number;
  measured_at: EpochMs;
  status: SitemapShareStatus;
  /** Sitemap URLs of the file's origin decided (0 without any). */
  checked: number;
  /** 1 when the walk stopped at its cap on URLs, its time budget or the reader's own limits: `checked` is a sample. */
  capped: number;
  /** JSON array of the sitemap URLs the walk started from. */
  sitemaps_json: string;
  /** JSON array of `{ crawler, blocked }`, one per watched crawler; empty unless measured. */
  crawlers_json: string;
  /** Why the share is partial or unknown, in words; null when whole. */
  reason: string | null;
}

/** One uploaded access log of a property, judged against the history of one of its files. */
export interface LogUploadsTable {
  id: Generated<number>;
  property_id: number;
  /** The file whose stored history judged the log; null once the file is gone (its URL stays). */
  file_id: number | null;
  file_url: string;
  /** The upload's name as the client gave it, if any. */
  name: string | null;
  created_at: EpochMs;
  /** Bytes received (compressed, for gzip). */
  bytes: number;
  lines: number;
  requests: number;
  /** Requests of clients that name no crawler. */
  other_requests: number;
  malformed: number;
  violations: number;
  first_request_at: EpochMs | null;
  last_request_at: EpochMs | null;
  /** JSON array of the versions judged by: `{ label, since }` (since: ISO time or null). */
  versions_json: string;
  /** JSON array of the first unreadable lines: `{ line, reason }`. */
  malformed_json: string;
  /** JSON array of the first violations (the engine's `Violation`, verification filled in), capped. */
  violations_json: string;
}

/** One crawler of an uploaded log: what it did, and per version what it fetched and was disallowed. */
export interface LogCrawlersTable {
  id: Generated<number>;
  upload_id: number;
  /** The catalogue name, or an unknown bot's product token. */
  crawler: string;
  known: number;
  operator: string | null;
  requests: number;
  unjudged: number;
  disallowed: number;
  /** Disallowed requests from addresses verified as the operator's. */
  verified_disallowed: number;
  /** The row's verification: `verified`, `spoofed`, `unverifiable` or `unchecked`. */
  verification: string;
  verification_reason: string | null;
  /** Requests by their address's verification. */
  verified: number;
  spoofed: number;
  unverifiable: number;
  unchecked: number;
  robots_fetches: number;
  first_seen: EpochMs;
  last_seen: EpochMs;
  /** JSON array per version: `{ version, requests, disallowed, lines: [{ line, rule, requests }] }`. */
  versions_json: string;
}

/** Named leases for jobs that one process at a time should run (pruning, webhook delivery sweeps). */
export interface LeasesTable {
  name: string;
  owner: string;
  expires_at: EpochMs;
}

/** The whole database. */
export interface Schema {
  properties: PropertiesTable;
  hosts: HostsTable;
  robots_files: RobotsFilesTable;
  host_files: HostFilesTable;
  bodies: BodiesTable;
  fetches: FetchesTable;
  versions: VersionsTable;
  alerts: AlertsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  leases: LeasesTable;
  sitemap_shares: SitemapSharesTable;
  log_uploads: LogUploadsTable;
  log_crawlers: LogCrawlersTable;
}

export type PropertyRow = Selectable<PropertiesTable>;
export type HostRow = Selectable<HostsTable>;
