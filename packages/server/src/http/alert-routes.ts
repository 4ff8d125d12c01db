/**
 * Alerts: the list, filtered and paged, and the counts per property and severity the badges show. Their JSON shapes
 * are here; the alert kinds and severities are the one list (`storage/alert-kinds.ts`).
 */

import { Type } from 'typebox';
import { ALERT_KIND_NAMES, ALERT_SEVERITIES } from '../storage/alert-kinds.js';
import { alertJsonOf, alertsPerPropertySince, listAlerts } from '../storage/alerts.js';
import type { ApiContext } from './context.js';
import { sinceOr400 } from './errors.js';
import { isoTime } from './json.js';
import { type Api, errors, Nullable, ReportStatus, StatusWords, Time } from './shapes.js';

const WEEK = 7 * 24 * 3_600_000;

export const AlertKind = Type.Enum(ALERT_KIND_NAMES, { description: 'what happened' });
const AlertSeverity = Type.Enum(ALERT_SEVERITIES);

export const Alert = Type.Object({
  id: Type.Integer(),
  kind: AlertKind,
  severity: AlertSeverity,
  message: Type.String({ description: 'what changed, in words' }),
  fileId: Nullable(Type.Integer()),
  fileUrl: Nullable(Type.String()),
  versionId: Nullable(Type.Integer()),
  previousVersionId: Nullable(Type.Integer({ description: 'the version compared against' })),
  diffUrl: Nullable(Type.String({ description: 'the diff of the two versions (GET)' })),
  fetchStatus: Nullable(
    Type.Object(
      { status: ReportStatus, reason: StatusWords },
      { description: "the report status of the alert's version, as the files API gives it" },
    ),
  ),
  errorKind: Nullable(
    Type.String({
      description:
        "the engine's error kind of the alert's version when its fetch failed (dns, connect, timeout, tls…), as the " +
        'files API gives it; null otherwise',
    }),
  ),
  details: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Time,
});

const AlertsQuery = Type.Object(
  {
    propertyId: Type.Optional(Type.Integer({ minimum: 1 })),
    fileId: Type.Optional(Type.Integer({ minimum: 1 })),
    kind: Type.Optional(AlertKind),
    severity: Type.Optional(AlertSeverity),
    since: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601: only alerts created at or after this' }),
    ),
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'only alerts with a smaller id (paging)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);

const AlertSummaryQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601; default: seven days before now' }),
    ),
  },
  { additionalProperties: false },
);

export const AlertSummary = Type.Object({
  since: Time,
  total: Type.Object(
    { critical: Type.Integer(), warning: Type.Integer(), info: Type.Integer() },
    { description: 'alerts since `since` on the files of every property, each counted once (the top bar shows it)' },
  ),
  properties: Type.Array(
    Type.Object({
      propertyId: Type.Integer(),
      critical: Type.Integer(),
      warning: Type.Integer(),
      info: Type.Integer(),
      latestAt: Time,
    }),
    {
      description:
        'alerts since `since` on each property that has any (a file shared by two properties counts in both)',
    },
  ),
});

function alertList(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Alerts, newest first: file changed, unreachable, recovered, and critical rule changes',
    tags: ['alerts'],
    querystring: AlertsQuery,
    response: { 200: Type.Object({ alerts: Type.Array(Alert) }), ...errors(400) },
  };
  api.get('/api/alerts', { schema }, async (request) => {
    const q = request.query;
    const since = sinceOr400(q.since);
    const rows = await listAlerts(context.database.db, {
      limit: q.limit ?? 100,
      ...(q.propertyId === undefined ? {} : { propertyId: q.propertyId }),
      ...(q.fileId === undefined ? {} : { fileId: q.fileId }),
      ...(q.kind === undefined ? {} : { kind: q.kind }),
      ...(q.severity === undefined ? {} : { severity: q.severity }),
      ...(q.before === undefined ? {} : { before: q.before }),
      ...(since === undefined ? {} : { since }),
    });
    return { alerts: rows.map(alertJsonOf) };
  });
}

function alertSummary(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Alert counts per property and severity since a time (default: the last seven days)',
    tags: ['alerts'],
    querystring: AlertSummaryQuery,
    response: { 200: AlertSummary, ...errors(400) },
  };
  api.get('/api/alerts/summary', { schema }, async (request) => {
    const since = sinceOr400(request.query.since) ?? context.now() - WEEK;
    const rows = await alertsPerPropertySince(context.database.db, since);
    const byProperty = new Map<number, { critical: number; warning: number; info: number; latestAt: number }>();
    const total = { critical: 0, warning: 0, info: 0 };
    const counted = new Set<number>();
    for (const row of rows) {
      if (!counted.has(Number(row.id))) {
        counted.add(Number(row.id));
        total[row.severity]++;
      }
      const id = Number(row.property_id);
      const counts = byProperty.get(id) ?? { critical: 0, warning: 0, info: 0, latestAt: 0 };
      counts[row.severity]++;
      counts.latestAt = Math.max(counts.latestAt, Number(row.created_at));
      byProperty.set(id, counts);
    }
    return {
      since: isoTime(since),
      total,
      properties: [...byProperty]
        .sort(([a], [b]) => a - b)
        .map(([propertyId, c]) => ({ propertyId, ...c, latestAt: isoTime(c.latestAt) })),
    };
  });
}

/** Registers the alert routes on `api`. */
export function registerAlertRoutes(api: Api, context: ApiContext): void {
  alertList(api, context);
  alertSummary(api, context);
}
