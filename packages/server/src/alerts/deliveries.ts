/**
 * Alert deliveries: a queue in `webhook_deliveries` (its queries in `storage/alerts.ts`). A {@link DeliveryLoop} runs
 * beside the fetch workers of a process, never inside their rounds, so a receiver that never answers cannot delay a
 * fetch. It claims due deliveries, each with a lease of its own (at most a few per webhook at a time, so a slow
 * webhook never holds up the others), renews a delivery's lease right before its attempt and makes the attempt only
 * while the lease still holds, so several workers on one database never send one delivery twice. A failed attempt is
 * retried after 1, 2, 4 … minutes (at most 6 h); after 8 attempts the delivery is marked failed.
 */

import type { Kysely } from 'kysely';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import {
  alertJsonOf,
  type ClaimedDelivery,
  claimDeliveries,
  deliveriesDue,
  deliveryTarget,
  finishDelivery,
  getAlert,
  releaseDelivery,
  renewDeliveryLease,
} from '../storage/alerts.js';
import type { DialectName } from '../storage/config.js';
import type { Schema } from '../storage/schema.js';
import {
  DELIVERY_TIMEOUT_MS,
  postWebhook,
  redactedWebhookUrl,
  retryDelayAfter,
  webhookFailureWords,
  webhookHeaders,
} from './webhooks.js';

/** Delivery knobs. */
export interface DeliveryOptions {
  readonly fetch: GuardedFetch;
  /** The claiming worker's name. */
  readonly owner: string;
  readonly now: () => number;
  /**
   * Deliveries in flight at once in this process (claimed per round by {@link deliverDueWebhooks}).
   * @default 16
   */
  readonly limit?: number;
  /**
   * Deliveries in flight at once per webhook in this process.
   * @default 2
   */
  readonly perWebhook?: number;
  /**
   * Time a receiver has to answer.
   * @default 5 seconds
   */
  readonly timeoutMs?: number;
  /**
   * A delivery's lease, taken when it is claimed and again right before its attempt; longer than the attempt can take.
   * @default the timeout plus 1 minute
   */
  readonly leaseMs?: number;
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
  /** The webhook's URL as logs show it: its origin only (see {@link redactedWebhookUrl}). */
  readonly url: string;
  readonly ok: boolean;
  readonly status: 'delivered' | 'pending' | 'failed';
  readonly error: string | null;
}

/** The JSON body sent for an alert. */
export async function alertPayload(db: Kysely<Schema>, alertId: number): Promise<Record<string, unknown> | null> {
  const row = await getAlert(db, alertId);
  return row ? { event: 'alert', alert: alertJsonOf(row) } : null;
}

function leaseOf(options: DeliveryOptions): number {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  // Never shorter than an attempt plus a margin: a lease that ran out mid-attempt would let another worker send it.
  return Math.max(options.leaseMs ?? 0, timeoutMs + 60_000);
}

/** Claims due deliveries and attempts each once, in parallel; returns the attempts made. */
export async function deliverDueWebhooks(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: DeliveryOptions,
): Promise<DeliveryAttempt[]> {
  const claims = await claimDeliveries(db, dialect, {
    owner: options.owner,
    now: options.now(),
    limit: options.limit ?? 16,
    perWebhook: options.perWebhook ?? 2,
    leaseMs: leaseOf(options),
  });
  const attempts = await Promise.all(claims.map((claim) => deliverOne(db, claim, options)));
  return attempts.filter((a) => a !== null);
}

/**
 * One attempt of a claimed delivery; null when none was made: the lease was lost before it, or `stop` aborted it
 * (the delivery is then given back, still due).
 */
async function deliverOne(
  db: Kysely<Schema>,
  claim: ClaimedDelivery,
  options: DeliveryOptions,
  stop?: AbortSignal,
): Promise<DeliveryAttempt | null> {
  const hook = await deliveryTarget(db, claim.webhook_id);
  const payload = await alertPayload(db, claim.alert_id);
  // The lease again, right before the attempt: whatever happened since the claim, the attempt has its whole lease.
  if (!(await renewDeliveryLease(db, claim, options.now(), leaseOf(options)))) return null;
  let error: string | null = null;
  if (!hook || !payload) {
    error = 'the webhook or the alert was deleted';
  } else {
    const body = JSON.stringify(payload);
    const id = `msg_${claim.id}_${claim.alert_id}`;
    const timestamp = Math.floor(options.now() / 1000);
    const headers = webhookHeaders({ event: 'alert', id, timestamp, body, secret: hook.secret });
    headers['x-robotskit-delivery'] = String(claim.id);
    const timeout = AbortSignal.timeout(options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    try {
      const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
      const status = await postWebhook(options.fetch, hook.url, headers, body, signal);
      if (status < 200 || status > 299) error = `the receiver answered HTTP ${status}; a webhook must answer 2xx`;
    } catch (e) {
      if (stop?.aborted && !timeout.aborted) {
        // Stopped, not failed: that says nothing about the receiver.
        await releaseDelivery(db, claim);
        return null;
      }
      error = webhookFailureWords(e);
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
  const attempt: DeliveryAttempt = {
    deliveryId: claim.id,
    webhookId: claim.webhook_id,
    alertId: claim.alert_id,
    url: hook ? redactedWebhookUrl(hook.url) : '',
    ok: error === null,
    status,
    error,
  };
  options.onAttempt?.(attempt);
  return attempt;
}

/** Options of {@link DeliveryLoop}. */
export interface DeliveryLoopOptions extends DeliveryOptions {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /**
   * Longest wait between looks for due deliveries (a retry falls due within this of its time).
   * @default 2 seconds
   */
  readonly idleMs?: number;
  /** Told about failures of the loop itself (database unreachable…); the loop keeps going. */
  readonly onError?: (error: unknown) => void;
}

/**
 * The delivery loop of a process: up to `limit` deliveries in flight, at most `perWebhook` of them to one webhook,
 * each started as soon as it is due and a lane is free.
 */
export class DeliveryLoop {
  readonly #options: DeliveryLoopOptions;
  /** Deliveries in flight per webhook. */
  readonly #busy = new Map<number, number>();
  #inFlight = new Set<Promise<void>>();
  #stop = new AbortController();
  #nap: (() => void) | null = null;
  #woken = false;
  #loop: Promise<void> | undefined;

  constructor(options: DeliveryLoopOptions) {
    this.#options = options;
  }

  /** Starts the loop in the background. */
  start(): void {
    if (this.#loop) return;
    this.#stop = new AbortController();
    this.#loop = this.#run(this.#stop.signal);
  }

  /** Looks for due deliveries now rather than after the idle wait. */
  wake(): void {
    this.#woken = true;
    this.#nap?.();
  }

  /** Stops looking; attempts in flight are cut short and their deliveries given back, still due. */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#nap?.();
    await this.#loop;
    this.#loop = undefined;
  }

  async #run(stop: AbortSignal): Promise<void> {
    const o = this.#options;
    const limit = o.limit ?? 16;
    const perWebhook = o.perWebhook ?? 2;
    while (!stop.aborted) {
      this.#woken = false;
      try {
        const free = limit - this.#inFlight.size;
        const full = [...this.#busy].filter(([, n]) => n >= perWebhook).map(([id]) => id);
        if (free > 0 && (await deliveriesDue(o.db, o.now(), full))) {
          const claims = await claimDeliveries(o.db, o.dialect, {
            owner: o.owner,
            now: o.now(),
            limit: free,
            perWebhook,
            skipWebhooks: full,
            leaseMs: leaseOf(o),
          });
          for (const claim of claims) {
            if ((this.#busy.get(claim.webhook_id) ?? 0) >= perWebhook || stop.aborted) {
              // The webhook's lanes filled up (it had some in flight already): give it back for the next look.
              await releaseDelivery(o.db, claim);
            } else {
              this.#begin(claim, stop);
            }
          }
        }
      } catch (error) {
        o.onError?.(error);
      }
      if (!this.#woken && !stop.aborted) await this.#rest(o.idleMs ?? 2000);
    }
    await Promise.all(this.#inFlight);
  }

  #begin(claim: ClaimedDelivery, stop: AbortSignal): void {
    const o = this.#options;
    const webhook = claim.webhook_id;
    this.#busy.set(webhook, (this.#busy.get(webhook) ?? 0) + 1);
    const running = deliverOne(o.db, claim, o, stop)
      .then(
        () => {},
        (error: unknown) => o.onError?.(error),
      )
      .finally(() => {
        const left = (this.#busy.get(webhook) ?? 1) - 1;
        if (left === 0) this.#busy.delete(webhook);
        else this.#busy.set(webhook, left);
        this.#inFlight.delete(running);
        // A lane is free: look again at once.
        this.wake();
      });
    this.#inFlight.add(running);
  }

  /** Waits `ms`, or until {@link wake} or {@link stop}. */
  #rest(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#nap = () => {
        this.#nap = null;
        done();
      };
    });
  }
}
