/**
 * The shapes the UI reads from the API: the service's own types of its answers (`robotskit-server`'s api-types, the
 * static types of the JSON schemas that also validate the answers and generate the OpenAPI document), so a change to
 * the API is a type error here. Type-only: nothing of the server reaches the bundle.
 */

import type * as Api from 'robotskit-server/api-types';

export type ListedProperty = Api.ListedPropertyJson;
export type PropertyDetail = Api.PropertyDetailJson;
export type RobotsFile = Api.RobotsFileJson;
export type PropertyFile = Api.PropertyFileJson;
export type FileDetail = Api.FileDetailJson;
export type FetchPoint = Api.FetchPointJson;
export type Version = Api.VersionJson;
export type VersionDetail = Api.VersionDetailJson;
export type StoredDiagnostic = Api.StoredDiagnosticJson;
export type DiagnosticsPage = Api.DiagnosticsPageJson;
export type VersionDiff = Api.VersionDiffJson;
export type VersionAiUse = Api.VersionAiUseJson;
export type Alert = Api.AlertJson;
export type AlertSummary = Api.AlertSummaryJson;
export type Webhook = Api.WebhookJson;
export type WebhookDelivery = Api.WebhookDeliveryJson;
export type WebhookTestResult = Api.WebhookTestResultJson;
export type Health = Api.HealthJson;
export type ImpactResult = Api.ImpactResultJson;
export type DiscoveredHosts = Api.DiscoveredHostsJson;
export type ActivityPage = Api.ActivityPageJson;
export type UploadDetail = Api.UploadDetailJson;
export type AccessResult = Api.AccessResultJson;

/** A file's effective policy: what governs crawling now, and why. */
export type FilePolicy = NonNullable<RobotsFile['effectivePolicy']>;
