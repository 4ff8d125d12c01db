/**
 * The shapes the UI reads from the API, taken from the service's own JSON schemas (`src/api/schemas.ts`, which also
 * validate the answers and generate the OpenAPI document), so a change to the API is a type error here. Type-only:
 * nothing of the server reaches the bundle.
 */

import type { Static } from 'typebox';
import type * as S from '../../server/src/http/schemas.js';

export type Property = Static<typeof S.Property>;
export type ListedProperty = Static<typeof S.ListedProperty>;
export type PropertyDetail = Static<typeof S.PropertyDetail>;
export type Host = Static<typeof S.Host>;
export type RobotsFile = Static<typeof S.RobotsFile>;
export type PropertyFile = Static<typeof S.PropertyFile>;
export type FileDetail = Static<typeof S.FileDetail>;
export type FetchSummary = Static<typeof S.FetchSummary>;
export type FetchPoint = Static<typeof S.FetchPoint>;
export type Version = Static<typeof S.Version>;
export type VersionDetail = Static<typeof S.VersionDetail>;
export type StoredDiagnostic = Static<typeof S.StoredDiagnostic>;
export type VersionDiff = Static<typeof S.VersionDiff>;
export type Alert = Static<typeof S.Alert>;
export type AlertSummary = Static<typeof S.AlertSummary>;
export type Webhook = Static<typeof S.Webhook>;
export type WebhookDelivery = Static<typeof S.WebhookDelivery>;
export type WebhookTestResult = Static<typeof S.WebhookTestResult>;
export type Health = Static<typeof S.Health>;
export type ImpactResult = Static<typeof S.ImpactResult>;
export type DiscoveredHosts = Static<typeof S.DiscoveredHosts>;

/** A file's effective policy: what governs crawling now, and why. */
export type FilePolicy = NonNullable<RobotsFile['effectivePolicy']>;
