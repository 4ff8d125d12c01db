/**
 * robotskit-server: the report service. `startService` runs it (the JSON API, the web UI and fetch workers over
 * SQLite or PostgreSQL), `runWorkers` runs fetch workers alone; the CLI's `serve` and `worker` are these two. Its
 * parts can be assembled by hand (the README's "Programmatic use"): the database, the app, the workers with their
 * retrieval and alert hook, the SSRF-guarded fetch. The API's answers as TypeScript types are the types-only entry
 * `robotskit-server/api-types`.
 * @packageDocumentation
 */

export { type AlertHookOptions, createAlertHook } from './alerts/store.js';
export {
  ID_HEADER,
  SIGNATURE_HEADER,
  signatureOf,
  signingKey,
  TIMESTAMP_HEADER,
} from './alerts/webhooks.js';
export { RobotskitServerError } from './errors.js';
export { type AppOptions, buildApp, type RangeSource } from './http/app.js';
export type { McpHandler, McpMount, McpNetwork } from './http/mcp-route.js';
export { AddressRefusedError } from './net/address-refused-error.js';
export { createGuardedFetch, type GuardedFetch, type GuardedFetchOptions } from './net/guarded-fetch.js';
export {
  type FetchingOptions,
  type RunningService,
  runWorkers,
  ServiceConfigError,
  type ServiceOptions,
  startService,
  type WorkersOptions,
} from './service.js';
export { ALERT_KINDS, type AlertKind, type AlertSeverity } from './storage/alert-kinds.js';
export {
  type DatabaseConfig,
  DatabaseConfigError,
  type DialectName,
  databaseConfigFrom,
  describeDatabase,
} from './storage/config.js';
export { type Database, DatabaseOpenError, type OpenOptions, openDatabase } from './storage/connect.js';
export { createPolicyResolver, type FilePolicyResolver } from './storage/history.js';
export type { FilePolicy } from './storage/rows.js';
export { type RobotsRetrieval, workerRetrieval } from './worker/retrieval.js';
export { Worker, type WorkerOptions } from './worker/worker.js';
