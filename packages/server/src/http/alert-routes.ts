/**
 * Alerts, webhooks and version diffs.
 */

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { textOf } from '../alerts/store.js';
import { type LintResults, lineDiff, lintChanges } from '../analysis/diff.js';
import type { AlertKind } from '../storage/alert-kinds.js';
import {
  alertJsonOf,
  deleteWebhook,
  getWebhook,
  insertWebhook,
  listAlerts,
  listWebhookIds,
} from '../storage/alerts.js';
import { getProperty } from '../storage/properties.js';
import { getVersion, type StoredVersion, versionBefore } from '../storage/report.js';
import type { StoredDiagnostic } from '../storage/rows.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime, parseJson, reportStatusOf } from './json.js';
import { Alert, AlertsQuery, CreateWebhookBody, DiffQuery, IdParams, VersionDiff, Webhook } from './schemas.js';

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, { $ref: 'Error#' }]));
const WRITE_SECURITY = [{ bearer: [] }];

function versionRef(v: StoredVersion) {
  return {
    id: v.id,
    fileId: Number(v.file_id),
    fetchedAt: isoTime(v.fetched_at),
    outcome: v.outcome,
    status: reportStatusOf(v).status,
    httpStatus: v.http_status,
  };
}

function lintOf(v: StoredVersion | null): LintResults {
  if (v === null || v.outcome !== 'rules') return { errors: null, warnings: null, diagnostics: null };
  return {
    errors: v.lint_errors,
    warnings: v.lint_warnings,
    diagnostics: parseJson<StoredDiagnostic[] | null>(v.lint_json, null),
  };
}

/** Checks a webhook URL: http(s), no credentials. Where it points is checked by the SSRF guard (see the route). */
function checkWebhookUrl(typed: string): string {
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new ApiError(400, 'invalid-request', `webhook url is not a URL: ${JSON.stringify(typed.slice(0, 200))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(400, 'invalid-request', `webhook url must be http or https (got ${url.protocol})`);
  }
  if (url.username || url.password) {
    throw new ApiError(400, 'invalid-request', 'webhook url must not carry credentials; use a secret instead');
  }
  url.hash = '';
  return url.href;
}

/**
 * A webhook URL as the API shows it: scheme, host and port only, the rest replaced by `…`. Path and query of a
 * webhook URL are often its secret (Slack-style `https://hooks.slack.com/services/T…/B…/x…`), so they are never
 * sent back, whether or not the service has a token.
 */
export function redactedUrl(stored: string): string {
  try {
    const url = new URL(stored);
    const rest = `${url.pathname}${url.search}`;
    return `${url.origin}${rest === '/' || rest === '' ? '/' : '/…'}`;
  } catch {
    return '…';
  }
}

/** Registers the routes on `app`. */
export function registerAlertRoutes(app: FastifyInstance, context: ApiContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = context.database;

  async function webhookJson(id: number) {
    const hook = await getWebhook(db, id);
    if (!hook) return undefined;
    return {
      id: hook.id,
      url: redactedUrl(hook.url),
      propertyId: hook.property_id === null ? null : Number(hook.property_id),
      kinds: parseJson<AlertKind[] | null>(hook.kinds_json, null),
      hasSecret: hook.secret !== null,
      createdAt: isoTime(hook.created_at),
      deliveries: hook.deliveries,
    };
  }

  api.get(
    '/api/alerts',
    {
      schema: {
        summary: 'Alerts, newest first: file changed, unreachable, recovered, and critical rule changes',
        tags: ['alerts'],
        querystring: AlertsQuery,
        response: { 200: Type.Object({ alerts: Type.Array(Alert) }), ...errors(400) },
      },
    },
    async (request) => {
      const q = request.query;
      let since: number | undefined;
      if (q.since !== undefined) {
        since = Date.parse(q.since);
        if (Number.isNaN(since)) throw new ApiError(400, 'invalid-request', `since is not a date: ${q.since}`);
      }
      const rows = await listAlerts(db, {
        limit: q.limit ?? 100,
        ...(q.propertyId === undefined ? {} : { propertyId: q.propertyId }),
        ...(q.fileId === undefined ? {} : { fileId: q.fileId }),
        ...(q.kind === undefined ? {} : { kind: q.kind }),
        ...(q.severity === undefined ? {} : { severity: q.severity }),
        ...(q.before === undefined ? {} : { before: q.before }),
        ...(since === undefined ? {} : { since }),
      });
      return { alerts: rows.map(alertJsonOf) };
    },
  );

  api.get(
    '/api/webhooks',
    {
      schema: {
        summary:
          'Webhooks and their delivery counts; URLs show only their origin and secrets are never shown (needs the token when the server has one)',
        security: WRITE_SECURITY,
        tags: ['alerts'],
        response: { 200: Type.Object({ webhooks: Type.Array(Webhook) }) },
      },
    },
    async () => {
      const webhooks = [];
      for (const id of await listWebhookIds(db)) {
        const json = await webhookJson(id);
        if (json) webhooks.push(json);
      }
      return { webhooks };
    },
  );

  api.post(
    '/api/webhooks',
    {
      schema: {
        summary: 'Add a webhook: a POST of each alert as JSON, signed when a secret is given, retried with backoff',
        tags: ['alerts'],
        security: WRITE_SECURITY,
        body: CreateWebhookBody,
        response: { 201: Webhook, ...errors(400, 401, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const url = checkWebhookUrl(body.url);
      // Where it points is checked now too (and again at every delivery: a name can change its answer).
      const refused = await context.fetch.refusalOf?.(url);
      if (refused) throw new ApiError(400, 'invalid-request', `webhook url refused: ${refused.message}`);
      if (body.propertyId !== undefined && !(await getProperty(db, body.propertyId))) {
        throw new ApiError(404, 'not-found', `no property with id ${body.propertyId}`);
      }
      const id = await insertWebhook(db, {
        url,
        secret: body.secret ?? null,
        property_id: body.propertyId ?? null,
        kinds_json: body.kinds === undefined ? null : JSON.stringify(body.kinds),
        now: context.now(),
      });
      const created = await webhookJson(id);
      if (!created) throw new ApiError(404, 'not-found', `webhook ${id} was deleted meanwhile`);
      return reply.status(201).send(created);
    },
  );

  api.delete(
    '/api/webhooks/:id',
    {
      schema: {
        summary: 'Delete a webhook and its pending deliveries',
        tags: ['alerts'],
        security: WRITE_SECURITY,
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      if (!(await deleteWebhook(db, request.params.id))) {
        throw new ApiError(404, 'not-found', `no webhook with id ${request.params.id}`);
      }
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/api/versions/:id/diff',
    {
      schema: {
        summary: 'Line diff of a version against another (default: the previous version), with lint changes',
        tags: ['files'],
        params: IdParams,
        querystring: DiffQuery,
        response: { 200: VersionDiff, ...errors(400, 404) },
      },
    },
    async (request) => {
      const version = await getVersion(db, request.params.id);
      if (!version) throw new ApiError(404, 'not-found', `no version with id ${request.params.id}`);
      const againstId = request.query.against ?? (await versionBefore(db, Number(version.file_id), version.id));
      let against: StoredVersion | null = null;
      if (againstId !== null) {
        against = (await getVersion(db, againstId)) ?? null;
        if (!against) throw new ApiError(404, 'not-found', `no version with id ${againstId} to compare against`);
      }
      const diff = lineDiff(against ? textOf(against) : '', textOf(version));
      return {
        version: versionRef(version),
        against: against ? versionRef(against) : null,
        added: diff.added,
        removed: diff.removed,
        hunks: diff.hunks.map((h) => ({ ...h, lines: [...h.lines] })),
        lint: lintChanges(lintOf(against), lintOf(version)) as never,
      };
    },
  );
}
