/**
 * Webhook deliveries: a queue in `webhook_deliveries` (its queries in `db/alerts.ts`), claimed with a lease like
 * fetches, so several workers never deliver one alert twice at the same time.
 * Each delivery is an HTTP POST of the alert as JSON through the SSRF-guarded fetch (redirects are not followed: a
 * 3xx is a failure), signed as Standard Webhooks do (id, timestamp and body under HMAC-SHA256) when the webhook has a
 * secret. Failures are retried with a doubling
 * backoff (1 min, 2 min, 4 min … up to 6 h); after 8 attempts the delivery is marked failed.
 */

import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import {
  alertJsonOf,
  type ClaimedDelivery,
  claimDeliveries,
  deliveryTarget,
  finishDelivery,
  getAlert,
} from '../storage/alerts.js';
import type { DialectName } from '../storage/config.js';
import type { Schema } from '../storage/schema.js';

const MINUTE = 60_000;

/** Delivery knobs. */
interface DeliveryOptions {
  readonly fetch: GuardedFetch;
  /** The claiming worker's name. */
  readonly owner: string;
  readonly now: () => number;
  /**
   * Deliveries claimed per round.
   * @default 20
   */
  readonly limit?: number;
  /**
   * Lease on a claimed delivery; longer than the request timeout.
   * @default 2 minutes
   */
  readonly leaseMs?: number;
  /**
   * Time allowed per request.
   * @default 10 seconds
   */
  readonly timeoutMs?: number;
  /**
   * Attempts before giving up.
   * @default 8
   */
  readonly maxAttempts?: number;
  /** Told about each attempt (for the log). */
  readonly onAttempt?: (attempt: DeliveryAttempt) => void;
}

/** What one delivery attempt did. */
interface DeliveryAttempt {
  readonly deliveryId: number;
  readonly webhookId: number;
  readonly alertId: number;
  readonly url: string;
  readonly ok: boolean;
  readonly status: 'delivered' | 'pending' | 'failed';
  readonly error: string | null;
}

/**
 * The signature header of the Standard Webhooks convention (standardwebhooks.com): `v1,<base64 HMAC-SHA256>` of
 * `${webhook-id}.${webhook-timestamp}.${body}`. The id (the same for every retry of one delivery) and the timestamp
 * (seconds) are signed with the body, so a receiver that checks the timestamp is recent and remembers ids it has seen
 * cannot be fed an old delivery again.
 */
export const SIGNATURE_HEADER = 'webhook-signature';
/** The delivery's id: `msg_<delivery>_<alert>`, unchanged across retries (receivers deduplicate on it). */
export const ID_HEADER = 'webhook-id';
/** When the attempt was signed, in whole seconds since 1970. */
export const TIMESTAMP_HEADER = 'webhook-timestamp';

/**
 * The signing key of a webhook secret: a Standard Webhooks secret (`whsec_` and base64) is the bytes it encodes, as
 * the convention's libraries read it; any other secret is its UTF-8 bytes (libraries: the `raw` format).
 */
export function signingKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** The `webhook-signature` value for one delivery attempt: `v1,<base64 HMAC-SHA256>`. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * POSTs one message to a webhook (redirects are not followed: a webhook answers where it is); resolves with the
 * receiver's HTTP status, its body left unread. Rejects on a network failure or the timeout.
 */
export async function postWebhook(
  fetch: GuardedFetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  await response.body?.cancel().catch(() => {});
  return response.status;
}

/**
 * The headers of one delivery (an alert or a test): JSON, the event, and the Standard Webhooks id, timestamp and, with
 * a secret, signature.
 */
export function webhookHeaders(message: {
  readonly event: string;
  readonly id: string;
  /** Seconds since the epoch. */
  readonly timestamp: number;
  readonly body: string;
  readonly secret: string | null;
}): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'robotskit-server webhooks',
    'x-robotskit-event': message.event,
    [ID_HEADER]: message.id,
    [TIMESTAMP_HEADER]: String(message.timestamp),
  };
  if (message.secret) {
    headers[SIGNATURE_HEADER] = signatureOf(message.secret, message.id, message.timestamp, message.body);
  }
  return headers;
}

/** Delay before attempt `attempts + 1`. */
export function retryDelayAfter(attempts: number): number {
  return Math.min(6 * 60 * MINUTE, MINUTE * 2 ** Math.min(attempts - 1, 20));
}

/** The JSON body sent for an alert. */
export async function alertPayload(db: Kysely<Schema>, alertId: number): Promise<Record<string, unknown> | null> {
  const row = await getAlert(db, alertId);
  return row ? { event: 'alert', alert: alertJsonOf(row) } : null;
}

/** Claims due deliveries and attempts each once; returns the attempts made. */
export async function deliverDueWebhooks(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: DeliveryOptions,
): Promise<DeliveryAttempt[]> {
  const claims = await claimDeliveries(db, dialect, {
    owner: options.owner,
    now: options.now(),
    limit: options.limit ?? 20,
    leaseMs: options.leaseMs ?? 2 * MINUTE,
  });
  const attempts: DeliveryAttempt[] = [];
  for (const claim of claims) {
    const attempt = await deliverOne(db, claim, options);
    options.onAttempt?.(attempt);
    attempts.push(attempt);
  }
  return attempts;
}

async function deliverOne(
  db: Kysely<Schema>,
  claim: ClaimedDelivery,
  options: DeliveryOptions,
): Promise<DeliveryAttempt> {
  const hook = await deliveryTarget(db, claim.webhook_id);
  const payload = await alertPayload(db, claim.alert_id);
  let error: string | null = null;
  if (!hook || !payload) {
    error = 'the webhook or the alert was deleted';
  } else {
    const body = JSON.stringify(payload);
    const id = `msg_${claim.id}_${claim.alert_id}`;
    const timestamp = Math.floor(options.now() / 1000);
    const headers = webhookHeaders({ event: 'alert', id, timestamp, body, secret: hook.secret });
    headers['x-robotskit-delivery'] = String(claim.id);
    try {
      const status = await postWebhook(options.fetch, hook.url, headers, body, options.timeoutMs ?? 10_000);
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (e) {
      error = e instanceof Error ? e.message || e.name : String(e);
    }
  }
  const attempts = claim.attempts + 1;
  const now = options.now();
  const status: DeliveryAttempt['status'] =
    error === null ? 'delivered' : !hook || attempts >= (options.maxAttempts ?? 8) ? 'failed' : 'pending';
  await finishDelivery(db, claim, {
    status,
    attempts,
    last_error: error,
    delivered_at: error === null ? now : null,
    next_attempt_at: status === 'pending' ? now + retryDelayAfter(attempts) : now,
  });
  return {
    deliveryId: claim.id,
    webhookId: claim.webhook_id,
    alertId: claim.alert_id,
    url: hook?.url ?? '',
    ok: error === null,
    status,
    error,
  };
}
