/**
 * robotskit-server: the report service. Storage (SQLite or PostgreSQL through Kysely), fetch workers that claim due
 * robots.txt files with leases, the JSON API, and a fetch that refuses private addresses.
 * @packageDocumentation
 */

export {
  type ChangeContext,
  type DetectedAlert,
  detectAlerts,
  looksLikeAssetPattern,
  type VersionSnapshot,
} from './alerts/detect.js';
export {
  type AlertHookOptions,
  type CreatedAlert,
  createAlertHook,
  createAlertsForVersion,
  prepareChange,
} from './alerts/store.js';
export {
  type DeliveryAttempt,
  type DeliveryOptions,
  deliverDueWebhooks,
  ID_HEADER,
  SIGNATURE_HEADER,
  signatureOf,
  signingKey,
  TIMESTAMP_HEADER,
} from './alerts/webhooks.js';
export { type DiffHunk, type DiffLine, type LineDiff, lineDiff, lintChanges } from './analysis/diff.js';
export type { SitemapCountStatus, SitemapUrlsAffected } from './analysis/sitemap-impact.js';
export { RobotskitServerError } from './errors.js';
export { type AppOptions, buildApp } from './http/app.js';
export { type PropertyInput, PropertyInputError, parsePropertyInput } from './http/property-input.js';
export { AddressPolicy, type AddressPolicyOptions } from './net/address-policy.js';
export { AddressRefusedError } from './net/address-refused-error.js';
export { createGuardedFetch, type GuardedFetch, type GuardedFetchOptions } from './net/guarded-fetch.js';
export {
  engineFetchOf,
  retrieveRobotsTxt,
  SERVICE_USER_AGENT,
  type ServiceRetrievalOptions,
} from './net/robots-fetch.js';
export {
  checkServiceConfig,
  type FetchingOptions,
  type RunningService,
  runWorkers,
  ServiceConfigError,
  type ServiceOptions,
  startService,
  type WorkersOptions,
} from './service.js';
export { ALERT_KINDS, type AlertKind, type AlertSeverity } from './storage/alert-kinds.js';
export { type ClaimedFile, claimDueFiles, releaseClaim, requestRecrawl } from './storage/claim.js';
export {
  type DatabaseConfig,
  DatabaseConfigError,
  type DialectName,
  databaseConfigFrom,
  describeDatabase,
} from './storage/config.js';
export { type Database, DatabaseOpenError, openDatabase } from './storage/connect.js';
export { createPolicyResolver, type FilePolicyResolver } from './storage/history.js';
export { migrateToLatest } from './storage/migrations.js';
export { DEFAULT_RETENTION_MS, pruneHistory } from './storage/prune.js';
export { type NewVersionHook, type RecordResult, recordFetch } from './storage/record-fetch.js';
export {
  analyzeBody,
  type BodyAnalysis,
  contentHash,
  type FetchRecord,
  type FilePolicy,
  fetchRecordOf,
  nextFetchAt,
  type StoredDiagnostic,
} from './storage/rows.js';
export type { HostSource, PropertyKind, Schema } from './storage/schema.js';
export { type RobotsRetrieval, workerRetrieval } from './worker/retrieval.js';
export { Worker, type WorkerOptions } from './worker/worker.js';
