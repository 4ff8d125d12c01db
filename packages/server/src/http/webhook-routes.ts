/**
 * Webhooks: list (URLs shown as their origin only), add (the address checked by the SSRF guard at once), delete, a
 * webhook's deliveries, and a signed test delivery sent now. Their JSON shapes are here.
 */

import { createHash, randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import {
  DELIVERY_TIMEOUT_MS,
  postWebhook,
  redactedWebhookUrl,
  webhookFailureWords,
  webhookHeaders,
} from '../alerts/webhooks.js';
import type { AlertKind as AlertKindName } from '../storage/alert-kinds.js';
import {
  deleteWebhook,
  deliveryTarget,
  getWebhook,
  insertWebhook,
  listWebhookIds,
  setWebhookKinds,
  webhookDeliveries,
} from '../storage/alerts.js';
import { getProperty } from '../storage/properties.js';
import { AlertKind } from './alert-routes.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';
import { isoTime, parseJson } from './json.js';
import { type Api, errors, IdParams, Nullable, Time, WRITE_SECURITY } from './shapes.js';

export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String({ description: 'scheme, host and port; path and query (often the secret) are shown as …' }),
  fingerprint: Type.String({
    description:
      'the first 8 hex digits of the SHA-256 of the whole URL: tells hooks to one host apart without showing their secret path',
  }),
  propertyId: Nullable(Type.Integer({ description: 'null: alerts of every property' })),
  kinds: Nullable(Type.Array(AlertKind, { description: 'null: every kind' })),
  hasSecret: Type.Boolean({
    description: 'deliveries carry webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body> (Standard Webhooks)',
  }),
  createdAt: Time,
  deliveries: Type.Object({ pending: Type.Integer(), delivered: Type.Integer(), failed: Type.Integer() }),
});

const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000, description: 'http(s) URL receiving a POST per alert' }),
    secret: Type.Optional(Type.String({ minLength: 8, maxLength: 200, description: 'HMAC-SHA256 key' })),
    propertyId: Type.Optional(Type.Integer({ minimum: 1 })),
    kinds: Type.Optional(Type.Array(AlertKind, { minItems: 1, uniqueItems: true })),
  },
  { additionalProperties: false },
);

export const WebhookDelivery = Type.Object({
  id: Type.Integer(),
  alertId: Type.Integer(),
  alertKind: Nullable(AlertKind),
  alertMessage: Nullable(Type.String()),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String({ description: 'why the last attempt failed' })),
  deliveredAt: Nullable(Time),
  nextAttemptAt: Nullable(Time),
});

export const WebhookTestResult = Type.Object({
  ok: Type.Boolean({ description: 'the receiver answered 2xx' }),
  httpStatus: Nullable(Type.Integer()),
  error: Nullable(Type.String({ description: 'why the test delivery failed, in words' })),
});

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

async function webhookJson(context: ApiContext, id: number) {
  const hook = await getWebhook(context.database.db, id);
  if (!hook) return undefined;
  return {
    id: hook.id,
    url: redactedWebhookUrl(hook.url),
    fingerprint: createHash('sha256').update(hook.url).digest('hex').slice(0, 8),
    propertyId: hook.property_id === null ? null : Number(hook.property_id),
    kinds: parseJson<AlertKindName[] | null>(hook.kinds_json, null),
    hasSecret: hook.secret !== null,
    createdAt: isoTime(hook.created_at),
    deliveries: hook.deliveries,
  };
}

/** The webhook a delivery goes to, or a 404. */
async function targetOr404(context: ApiContext, id: number) {
  const hook = await deliveryTarget(context.database.db, id);
  if (!hook) throw new ApiError(404, 'not-found', `no webhook with id ${id}`);
  return hook;
}

function webhookList(api: Api, context: ApiContext): void {
  const schema = {
    summary:
      'Webhooks and their delivery counts; URLs show only their origin and secrets are never shown (needs the token when the server has one)',
    security: WRITE_SECURITY,
    tags: ['alerts'],
    response: { 200: Type.Object({ webhooks: Type.Array(Webhook) }) },
  };
  api.get('/api/webhooks', { schema }, async () => {
    const webhooks = [];
    for (const id of await listWebhookIds(context.database.db)) {
      const json = await webhookJson(context, id);
      if (json) webhooks.push(json);
    }
    return { webhooks };
  });
}

function addWebhook(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Add a webhook: a POST of each alert as JSON, signed when a secret is given, retried with backoff',
    tags: ['alerts'],
    security: WRITE_SECURITY,
    body: CreateWebhookBody,
    response: { 201: Webhook, ...errors(400, 401, 404, 413, 415) },
  };
  api.post('/api/webhooks', { schema }, async (request, reply) => {
    const { db } = context.database;
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
    const created = await webhookJson(context, id);
    if (!created) throw new ApiError(404, 'not-found', `webhook ${id} was deleted meanwhile`);
    return reply.status(201).send(created);
  });
}

const ChangeWebhookBody = Type.Object(
  {
    kinds: Nullable(
      Type.Array(AlertKind, { minItems: 1, uniqueItems: true, description: 'the alert kinds sent; null: every kind' }),
    ),
  },
  { additionalProperties: false },
);

function changeWebhook(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Choose the alert kinds a webhook is sent (null: every kind)',
    tags: ['alerts'],
    security: WRITE_SECURITY,
    params: IdParams,
    body: ChangeWebhookBody,
    response: { 200: Webhook, ...errors(400, 401, 404, 413, 415) },
  };
  api.patch('/api/webhooks/:id', { schema }, async (request) => {
    const { id } = request.params;
    const kinds = request.body.kinds;
    if (!(await setWebhookKinds(context.database.db, id, kinds === null ? null : JSON.stringify(kinds)))) {
      throw new ApiError(404, 'not-found', `no webhook with id ${id}`);
    }
    const changed = await webhookJson(context, id);
    if (!changed) throw new ApiError(404, 'not-found', `no webhook with id ${id}`);
    return changed;
  });
}

function removeWebhook(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Delete a webhook and its pending deliveries',
    tags: ['alerts'],
    security: WRITE_SECURITY,
    params: IdParams,
    response: { 204: Type.Null({ description: 'deleted' }), ...errors(400, 401, 404) },
  };
  api.delete('/api/webhooks/:id', { schema }, async (request, reply) => {
    if (!(await deleteWebhook(context.database.db, request.params.id))) {
      throw new ApiError(404, 'not-found', `no webhook with id ${request.params.id}`);
    }
    return reply.status(204).send(null);
  });
}

function deliveries(api: Api, context: ApiContext): void {
  const schema = {
    summary: "A webhook's deliveries, newest first (the last 100), with why failed ones failed",
    tags: ['alerts'],
    params: IdParams,
    response: { 200: Type.Object({ deliveries: Type.Array(WebhookDelivery) }), ...errors(400, 404) },
  };
  api.get('/api/webhooks/:id/deliveries', { schema }, async (request) => {
    await targetOr404(context, request.params.id);
    const rows = await webhookDeliveries(context.database.db, request.params.id, 100);
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
  });
}

function testDelivery(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'Send a test delivery now (event "test", signed like alerts) and say how the receiver answered',
    tags: ['alerts'],
    security: WRITE_SECURITY,
    params: IdParams,
    response: { 200: WebhookTestResult, ...errors(400, 401, 404) },
  };
  api.post('/api/webhooks/:id/test', { schema }, async (request) => {
    const hook = await targetOr404(context, request.params.id);
    const body = JSON.stringify({
      event: 'test',
      webhookId: Number(hook.id),
      message: 'A test delivery from the robots.txt report: this webhook works.',
      sentAt: isoTime(context.now()),
    });
    const id = `msg_test_${hook.id}_${randomUUID()}`;
    const timestamp = Math.floor(context.now() / 1000);
    const headers = webhookHeaders({ event: 'test', id, timestamp, body, secret: hook.secret });
    try {
      const status = await postWebhook(
        context.fetch,
        hook.url,
        headers,
        body,
        AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      );
      const ok = status >= 200 && status < 300;
      return {
        ok,
        httpStatus: status,
        error: ok ? null : `the receiver answered HTTP ${status}; a webhook must answer 2xx`,
      };
    } catch (error) {
      return { ok: false, httpStatus: null, error: webhookFailureWords(error) };
    }
  });
}

/** Registers the webhook routes on `api`. */
export function registerWebhookRoutes(api: Api, context: ApiContext): void {
  webhookList(api, context);
  addWebhook(api, context);
  changeWebhook(api, context);
  removeWebhook(api, context);
  deliveries(api, context);
  testDelivery(api, context);
}
