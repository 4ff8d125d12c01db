/**
 * What every webhook message shares (alert deliveries in `deliveries.ts`, test deliveries in the API): an HTTP POST
 * of JSON through the SSRF-guarded fetch (redirects are not followed: a 3xx is a failure), signed as Standard
 * Webhooks do (id, timestamp and body under HMAC-SHA256) when the webhook has a secret; the retry backoff (1 min,
 * 2 min, 4 min … up to 6 h); failures in words; the URL as logs and the API show it (origin only).
 */

import { createHmac } from 'node:crypto';
import { classifyFetchError, describeFetchOutcome } from 'robotskit/fetch';
import { AddressRefusedError } from '../net/address-refused-error.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';

const MINUTE = 60_000;

/**
 * Time a receiver has to answer one delivery (its status line and headers): short, so a receiver that never answers
 * holds a delivery lane for seconds, not minutes.
 */
export const DELIVERY_TIMEOUT_MS = 5000;

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
 * receiver's HTTP status, its body left unread. Rejects on a network failure or when `signal` aborts (the timeout).
 */
export async function postWebhook(
  fetch: GuardedFetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal });
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

/**
 * Why a request to a webhook failed, in words: the address guard's own refusal, else the engine's words for the
 * failure (`connection refused`, `timed out`…), never a runtime's raw text such as "fetch failed".
 */
export function webhookFailureWords(error: unknown): string {
  for (let e: unknown = error, depth = 0; e !== null && e !== undefined && depth < 8; depth++) {
    if (e instanceof AddressRefusedError) return e.message;
    e = typeof e === 'object' ? (e as { cause?: unknown }).cause : undefined;
  }
  return describeFetchOutcome({ status: null, error: classifyFetchError(error, 'request') }).summary;
}

/**
 * A webhook URL as logs and the API show it: scheme, host and port only, the rest replaced by `…`. Path and query of
 * a webhook URL are often its secret (Slack-style `https://hooks.slack.com/services/T…/B…/x…`), and so are a user
 * name and password in it: none of them is ever shown.
 */
export function redactedWebhookUrl(stored: string): string {
  try {
    const url = new URL(stored);
    const rest = `${url.pathname}${url.search}${url.hash}`;
    return `${url.origin}${rest === '/' || rest === '' ? '/' : '/…'}`;
  } catch {
    return '…';
  }
}
