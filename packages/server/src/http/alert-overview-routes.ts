/**
 * What the alerts and webhooks pages need beyond the alert list: alert counts per property (the badges on the
 * properties list and property pages), a webhook's delivery history, and a test delivery sent at once.
 */

import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { classifyFetchError, describeFetchOutcome } from 'robotskit/fetch';
import { Type } from 'typebox';
import { postWebhook, webhookHeaders } from '../alerts/webhooks.js';
import { AddressRefusedError } from '../net/address-refused-error.js';
import { alertsPerPropertySince, deliveryTarget, webhookDeliveries } from '../storage/alerts.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime } from './json.js';
import { AlertSummary, AlertSummaryQuery, IdParams, WebhookDelivery, WebhookTestResult } from './schemas.js';

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, { $ref: 'Error#' }]));
const WRITE_SECURITY = [{ bearer: [] }];
const WEEK = 7 * 24 * 3_600_000;

/** Why a request to a webhook failed, in words: the guard's own refusal, else the engine's catalogue. */
export function webhookFailureWords(error: unknown): string {
  for (let e: unknown = error, depth = 0; e !== null && e !== undefined && depth < 8; depth++) {
    if (e instanceof AddressRefusedError) return e.message;
    e = typeof e === 'object' ? (e as { cause?: unknown }).cause : undefined;
  }
  return describeFetchOutcome({ status: null, error: classifyFetchError(error, 'request') }).summary;
}

/** Registers the routes on `app`. */
export function registerAlertOverviewRoutes(app: FastifyInstance, context: ApiContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = context.database;

  api.get(
    '/api/alerts/summary',
    {
      schema: {
        summary: 'Alert counts per property and severity since a time (default: the last seven days)',
        tags: ['alerts'],
        querystring: AlertSummaryQuery,
        response: { 200: AlertSummary, ...errors(400) },
      },
    },
    async (request) => {
      const sinceText = request.query.since;
      const since = sinceText === undefined ? context.now() - WEEK : Date.parse(sinceText);
      if (Number.isNaN(since)) throw new ApiError(400, 'invalid-request', `since is not a date: ${sinceText}`);
      const rows = await alertsPerPropertySince(db, since);
      const byProperty = new Map<number, { critical: number; warning: number; info: number; latestAt: number }>();
      for (const row of rows) {
        const id = Number(row.property_id);
        const counts = byProperty.get(id) ?? { critical: 0, warning: 0, info: 0, latestAt: 0 };
        counts[row.severity]++;
        counts.latestAt = Math.max(counts.latestAt, Number(row.created_at));
        byProperty.set(id, counts);
      }
      return {
        since: isoTime(since),
        properties: [...byProperty]
          .sort(([a], [b]) => a - b)
          .map(([propertyId, c]) => ({ propertyId, ...c, latestAt: isoTime(c.latestAt) })),
      };
    },
  );

  api.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        summary: "A webhook's deliveries, newest first (the last 100), with why failed ones failed",
        tags: ['alerts'],
        params: IdParams,
        response: { 200: Type.Object({ deliveries: Type.Array(WebhookDelivery) }), ...errors(400, 404) },
      },
    },
    async (request) => {
      const hook = await deliveryTarget(db, request.params.id);
      if (!hook) throw new ApiError(404, 'not-found', `no webhook with id ${request.params.id}`);
      const rows = await webhookDeliveries(db, request.params.id, 100);
      return {
        deliveries: rows.map((r) => ({
          id: Number(r.id),
          alertId: Number(r.alert_id),
          alertKind: r.kind ?? null,
          alertMessage: r.message ?? null,
          status: r.status,
          attempts: r.attempts,
          lastError: r.last_error,
          deliveredAt: r.delivered_at === null ? null : isoTime(Number(r.delivered_at)),
          nextAttemptAt: r.status === 'pending' ? isoTime(Number(r.next_attempt_at)) : null,
        })),
      };
    },
  );

  api.post(
    '/api/webhooks/:id/test',
    {
      schema: {
        summary: 'Send a test delivery now (event "test", signed like alerts) and say how the receiver answered',
        tags: ['alerts'],
        security: WRITE_SECURITY,
        params: IdParams,
        response: { 200: WebhookTestResult, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      const hook = await deliveryTarget(db, request.params.id);
      if (!hook) throw new ApiError(404, 'not-found', `no webhook with id ${request.params.id}`);
      const body = JSON.stringify({
        event: 'test',
        webhookId: Number(hook.id),
        message: 'A test delivery from the robots.txt report: this webhook works.',
        sentAt: isoTime(context.now()),
      });
      const headers = webhookHeaders({
        event: 'test',
        id: `msg_test_${hook.id}_${randomUUID()}`,
        timestamp: Math.floor(context.now() / 1000),
        body,
        secret: hook.secret,
      });
      try {
        const status = await postWebhook(context.fetch, hook.url, headers, body, 10_000);
        const ok = status >= 200 && status < 300;
        return {
          ok,
          httpStatus: status,
          error: ok ? null : `the receiver answered HTTP ${status}; a webhook must answer 2xx`,
        };
      } catch (error) {
        return { ok: false, httpStatus: null, error: webhookFailureWords(error) };
      }
    },
  );
}
