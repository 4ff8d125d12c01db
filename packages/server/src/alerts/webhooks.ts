/**
 * Webhook deliveries: a queue in `webhook_deliveries`, claimed with a lease like fetches (PostgreSQL: `FOR UPDATE SKIP
 * LOCKED`; SQLite: an immediate transaction), so several workers never deliver one alert twice at the same time.
 * Each delivery is an HTTP POST of the alert as JSON through the SSRF-guarded fetch (redirects are not followed: a
 * 3xx is a failure), signed as Standard Webhooks do (id, timestamp and body under HMAC-SHA256) when the webhook has a
 * secret. Failures are retried with a doubling
 * backoff (1 min, 2 min, 4 min … up to 6 h); after 8 attempts the delivery is marked failed.
 */

import { createHmac, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/config.js';
import type { Schema } from '../db/schema.js';
import { writeTransaction } from '../db/transaction.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';

const MINUTE = 60_000;

/** Delivery knobs. */
export interface DeliveryOptions {
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
export interface DeliveryAttempt {
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

/** Delay before attempt `attempts + 1`. */
export function retryDelayAfter(attempts: number): number {
  return Math.min(6 * 60 * MINUTE, MINUTE * 2 ** Math.min(attempts - 1, 20));
}

interface Claimed {
  readonly id: number;
  readonly webhook_id: number;
  readonly alert_id: number;
  readonly attempts: number;
  readonly token: string;
}

/** Claims due deliveries for this worker. */
export async function claimDeliveries(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: { owner: string; now: number; limit: number; leaseMs: number },
): Promise<Claimed[]> {
  const token = `${options.owner}:${randomUUID()}`;
  return writeTransaction(db, dialect, async (trx) => {
    let due = trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', options.now)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', options.now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(options.limit);
    if (dialect === 'postgres') due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable('webhook_deliveries')
      .set({ lease_owner: token, lease_expires_at: options.now + options.leaseMs })
      .where('id', 'in', ids)
      .returning(['id', 'webhook_id', 'alert_id', 'attempts'])
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), token }));
  });
}

/** The JSON body sent for an alert. */
export async function alertPayload(db: Kysely<Schema>, alertId: number): Promise<Record<string, unknown> | null> {
  const row = await db
    .selectFrom('alerts as a')
    .leftJoin('robots_files as f', 'f.id', 'a.file_id')
    .select([
      'a.id',
      'a.kind',
      'a.severity',
      'a.message',
      'a.details_json',
      'a.file_id',
      'f.url',
      'a.version_id',
      'a.previous_version_id',
      'a.created_at',
    ])
    .where('a.id', '=', alertId)
    .executeTakeFirst();
  if (!row) return null;
  const details = row.details_json === null ? {} : (JSON.parse(row.details_json) as Record<string, unknown>);
  return {
    event: 'alert',
    alert: {
      id: Number(row.id),
      kind: row.kind,
      severity: row.severity,
      message: row.message,
      fileId: row.file_id,
      fileUrl: row.url,
      versionId: row.version_id,
      previousVersionId: row.previous_version_id,
      diffUrl: details.diffUrl ?? null,
      details,
      createdAt: new Date(Number(row.created_at)).toISOString(),
    },
  };
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

async function deliverOne(db: Kysely<Schema>, claim: Claimed, options: DeliveryOptions): Promise<DeliveryAttempt> {
  const hook = await db
    .selectFrom('webhooks')
    .select(['id', 'url', 'secret'])
    .where('id', '=', claim.webhook_id)
    .executeTakeFirst();
  const payload = await alertPayload(db, claim.alert_id);
  let error: string | null = null;
  if (!hook || !payload) {
    error = 'the webhook or the alert was deleted';
  } else {
    const body = JSON.stringify(payload);
    const id = `msg_${claim.id}_${claim.alert_id}`;
    const timestamp = Math.floor(options.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'robotskit-server webhooks',
      'x-robotskit-event': 'alert',
      'x-robotskit-delivery': String(claim.id),
      [ID_HEADER]: id,
      [TIMESTAMP_HEADER]: String(timestamp),
    };
    if (hook.secret) headers[SIGNATURE_HEADER] = signatureOf(hook.secret, id, timestamp, body);
    try {
      const response = await options.fetch(hook.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.body?.cancel().catch(() => {});
      if (response.status < 200 || response.status > 299) error = `HTTP ${response.status}`;
    } catch (e) {
      error = e instanceof Error ? e.message || e.name : String(e);
    }
  }
  const attempts = claim.attempts + 1;
  const now = options.now();
  const status: DeliveryAttempt['status'] =
    error === null ? 'delivered' : !hook || attempts >= (options.maxAttempts ?? 8) ? 'failed' : 'pending';
  await db
    .updateTable('webhook_deliveries')
    .set({
      status,
      attempts,
      last_error: error,
      delivered_at: error === null ? now : null,
      next_attempt_at: status === 'pending' ? now + retryDelayAfter(attempts) : now,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where('id', '=', claim.id)
    .where('lease_owner', '=', claim.token)
    .execute();
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
