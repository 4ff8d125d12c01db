/**
 * The API's JSON shapes as TypeScript types, for clients written in TypeScript (the web UI): each is the static type
 * of the schema its route validates and serialises with, so a change to the API is a type error in its clients.
 * Types only: importing this module loads nothing at run time (`robotskit-server/api-types`).
 */

import type { Static } from 'typebox';
import type { AccessResult } from './access-routes.js';
import type { ActivityPage, UploadDetail, UploadSummary } from './activity-routes.js';
import type { VersionAiUse } from './ai-use-routes.js';
import type { Alert, AlertSummary } from './alert-routes.js';
import type { FetchPoint, FetchSummary, FileDetail, PropertyFile, RobotsFile, Version } from './file-routes.js';
import type { Health } from './health-routes.js';
import type { ImpactResult } from './impact-routes.js';
import type { DiscoveredHosts, Host, ListedProperty, Property, PropertyDetail } from './property-routes.js';
import type { LiveRobots, TestResult, Verdict } from './tester-routes.js';
import type { DiagnosticsPage, StoredDiagnostic, VersionDetail, VersionDiff } from './version-routes.js';
import type { Webhook, WebhookDelivery, WebhookTestResult } from './webhook-routes.js';

/** `POST /api/properties/:id/access`: robots.txt and a page as each crawler, and where the edge disagrees with the file. */
export type AccessResultJson = Static<typeof AccessResult>;
/** `GET /api/health`. */
export type HealthJson = Static<typeof Health>;
/** A property as listed and shown. */
export type PropertyJson = Static<typeof Property>;
/** A property in `GET /api/properties`, with its health. */
export type ListedPropertyJson = Static<typeof ListedProperty>;
/** `GET /api/properties/:id`. */
export type PropertyDetailJson = Static<typeof PropertyDetail>;
/** A host of a property. */
export type HostJson = Static<typeof Host>;
/** `POST /api/properties/:id/discover-hosts`. */
export type DiscoveredHostsJson = Static<typeof DiscoveredHosts>;
/** A robots.txt file as listed. */
export type RobotsFileJson = Static<typeof RobotsFile>;
/** A file in a property's files table. */
export type PropertyFileJson = Static<typeof PropertyFile>;
/** `GET /api/files/:id`. */
export type FileDetailJson = Static<typeof FileDetail>;
/** A file's last fetch. */
export type FetchSummaryJson = Static<typeof FetchSummary>;
/** One fetch on a file's timeline. */
export type FetchPointJson = Static<typeof FetchPoint>;
/** A version as listed. */
export type VersionJson = Static<typeof Version>;
/** `GET /api/versions/:id`. */
export type VersionDetailJson = Static<typeof VersionDetail>;
/** `GET /api/versions/:id/diagnostics`: a page of a version's diagnostics. */
export type DiagnosticsPageJson = Static<typeof DiagnosticsPage>;
/** A lint diagnostic as stored. */
export type StoredDiagnosticJson = Static<typeof StoredDiagnostic>;
/** `GET /api/versions/:id/diff`. */
export type VersionDiffJson = Static<typeof VersionDiff>;
/** `GET /api/versions/:id/ai-use`: what the version gives the catalogue's crawlers of each AI purpose. */
export type VersionAiUseJson = Static<typeof VersionAiUse>;
/** An alert, as listed and as webhooks send it. */
export type AlertJson = Static<typeof Alert>;
/** `GET /api/alerts/summary`. */
export type AlertSummaryJson = Static<typeof AlertSummary>;
/** A webhook. */
export type WebhookJson = Static<typeof Webhook>;
/** A webhook delivery. */
export type WebhookDeliveryJson = Static<typeof WebhookDelivery>;
/** `POST /api/webhooks/:id/test`. */
export type WebhookTestResultJson = Static<typeof WebhookTestResult>;
/** `POST /api/test`. */
export type TestResultJson = Static<typeof TestResult>;
/** One verdict of `POST /api/test`. */
export type VerdictJson = Static<typeof Verdict>;
/** `GET /api/fetch`. */
export type LiveRobotsJson = Static<typeof LiveRobots>;
/** `POST /api/impact`. */
export type ImpactResultJson = Static<typeof ImpactResult>;
/** `GET /api/properties/:id/logs`: a property's uploaded logs and one in detail. */
export type ActivityPageJson = Static<typeof ActivityPage>;
/** An uploaded log as listed. */
export type UploadSummaryJson = Static<typeof UploadSummary>;
/** `POST /api/properties/:id/logs`: an uploaded log judged, in detail. */
export type UploadDetailJson = Static<typeof UploadDetail>;
