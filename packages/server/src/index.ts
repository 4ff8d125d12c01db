/**
 * robotskit-server: the report service. Storage (SQLite or PostgreSQL through Kysely), fetch workers that claim due
 * robots.txt files with leases, the JSON API, and a fetch that refuses private addresses.
 * @packageDocumentation
 */

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
export { claimDueFiles, releaseClaim, requestRecrawl } from './monitor/claim.js';
export { DEFAULT_RETENTION_MS, pruneHistory } from './monitor/prune.js';
export { contentHash, type RecordResult, recordFetch } from './monitor/record-fetch.js';
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
