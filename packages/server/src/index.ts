/**
 * robotskit-server: the report service. Storage (SQLite or PostgreSQL through Kysely), fetch workers that claim due
 * robots.txt files with leases, the JSON API, and a fetch that refuses private addresses.
 * @packageDocumentation
 */

export {
  ALERT_KINDS,
  type AlertKind,
  type AlertSeverity,
  type DetectedAlert,
  detectAlerts,
  looksLikeAssetPattern,
  type VersionSnapshot,
} from './alerts/detect.js';
export { type DiffHunk, type DiffLine, type LineDiff, lineDiff, lintChanges } from './alerts/diff.js';
export { type CreatedAlert, createAlertHook, createAlertsForVersion } from './alerts/store.js';
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
export { type AppOptions, buildApp } from './api/app.js';
export type { EffectivePolicy, EffectivePolicyResolver } from './api/effective-policy.js';
export { type PropertyInput, PropertyInputError, parsePropertyInput } from './api/property-input.js';
export {
  type DatabaseConfig,
  DatabaseConfigError,
  type DialectName,
  databaseConfigFrom,
  describeDatabase,
} from './db/config.js';
export { type Database, DatabaseOpenError, openDatabase } from './db/connect.js';
export { migrateToLatest } from './db/migrations.js';
export type { FetchOutcome, HostSource, PropertyKind, Schema } from './db/schema.js';
export { analyzeBody, createEngineAnalyzer, type StoredDiagnostic } from './engine/analyzer.js';
export { createEnginePolicyResolver } from './engine/policy.js';
export {
  createEngineRetrieval,
  type EngineRetrievalOptions,
  engineFetchOf,
  retrieveWithEngine,
  SERVICE_USER_AGENT,
  storedResultOf,
} from './engine/retrieval.js';
export { createEngineScheduler, type FetchScheduler, nextFetchByEngine } from './engine/schedule.js';
export { claimDueFiles, releaseClaim, requestRecrawl } from './monitor/claim.js';
export { DEFAULT_RETENTION_MS, pruneHistory } from './monitor/prune.js';
export { contentHash, type NewVersionHook, type RecordResult, recordFetch } from './monitor/record-fetch.js';
export type {
  BodyAnalysis,
  BodyAnalyzer,
  ClaimedFile,
  RedirectHop,
  RetrievalContext,
  RetrievalResult,
  RobotsRetrieval,
} from './monitor/retrieval.js';
export { DEFAULT_SCHEDULE, nextFetchTime, type SchedulePolicy } from './monitor/schedule.js';
export { Worker, type WorkerOptions } from './monitor/worker.js';
export { AddressPolicy, type AddressPolicyOptions } from './net/address-policy.js';
export { AddressRefusedError } from './net/address-refused-error.js';
export { createGuardedFetch, type GuardedFetch, type GuardedFetchOptions } from './net/guarded-fetch.js';
export { builtInPlugIns, type PlugInDependencies, type PlugIns } from './plug-ins.js';
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
