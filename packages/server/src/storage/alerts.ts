/**
 * The queries of alerts, webhooks and their delivery queue. Deliveries are claimed with a lease like fetches, in the
 * storage dialect's write transaction with its claim lock, so several workers never deliver one alert twice at once.
 */

import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { FetchStatus } from 'robotskit/fetch';
import type { AlertKind, AlertSeverity } from './alert-kinds.js';
import type { DialectName } from './config.js';
import type { AlertsTable, Schema, WebhookDeliveriesTable } from './schema.js';
import { storageDialect } from './storage-dialect.js';

/** Which alerts to list, newest first. */
interface AlertFilter {
  readonly limit: number;
  readonly propertyId?: number;
  readonly fileId?: number;
  readonly kind?: AlertKind;
  readonly severity?: AlertSeverity;
  /** Only alerts with a smaller id (paging). */
  readonly before?: number;
  /** Only alerts created at or after this time, epoch ms. */
  readonly since?: number;
}

function alertRows(db: Kysely<Schema>) {
  return db
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
    ]);
}

/** An alert row with its file's URL. */
export type AlertRow = Awaited<ReturnType<ReturnType<typeof alertRows>['executeTakeFirstOrThrow']>>;

/** Alerts matching `filter`, newest first. */
export async function listAlerts(db: Kysely<Schema>, filter: AlertFilter): Promise<AlertRow[]> {
  let query = alertRows(db).orderBy('a.id', 'desc').limit(filter.limit);
  const { propertyId } = filter;
  if (propertyId !== undefined) {
    query = query.where('a.file_id', 'in', (eb) =>
      eb
        .selectFrom('host_files as hf')
        .innerJoin('hosts as h', 'h.id', 'hf.host_id')
        .select('hf.file_id')
        .where('h.property_id', '=', propertyId),
    );
  }
  if (filter.fileId !== undefined) query = query.where('a.file_id', '=', filter.fileId);
  if (filter.kind !== undefined) query = query.where('a.kind', '=', filter.kind);
  if (filter.severity !== undefined) query = query.where('a.severity', '=', filter.severity);
  if (filter.before !== undefined) query = query.where('a.id', '<', filter.before);
  if (filter.since !== undefined) query = query.where('a.created_at', '>=', filter.since);
  return query.execute();
}

/** One alert, or undefined. */
export function getAlert(db: Kysely<Schema>, id: number): Promise<AlertRow | undefined> {
  return alertRows(db).where('a.id', '=', id).executeTakeFirst();
}

/** The alert as the API serves it and webhooks send it. */
export function alertJsonOf(row: AlertRow) {
  // The report status is stored among the details and served beside them.
  const { fetchStatus, errorKind, ...details } = parseDetails(row.details_json);
  return {
    id: Number(row.id),
    kind: row.kind,
    severity: row.severity,
    message: row.message,
    fileId: row.file_id === null ? null : Number(row.file_id),
    fileUrl: row.url ?? null,
    versionId: row.version_id === null ? null : Number(row.version_id),
    previousVersionId: row.previous_version_id === null ? null : Number(row.previous_version_id),
    diffUrl: typeof details.diffUrl === 'string' ? details.diffUrl : null,
    fetchStatus: fetchStatusIn(fetchStatus),
    errorKind: typeof errorKind === 'string' ? errorKind : null,
    details,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}

/** The report status stored with an alert (alerts made before it was stored have none). */
function fetchStatusIn(value: unknown): FetchStatus | null {
  if (value === undefined || value === null || typeof value !== 'object') return null;
  const { status, reason } = value as Partial<FetchStatus>;
  if (status !== 'fetched' && status !== 'not-found' && status !== 'error') return null;
  return { status, reason: typeof reason === 'string' ? reason : null };
}

function parseDetails(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Stores an alert; returns its id. */
export async function insertAlert(db: Kysely<Schema>, values: Omit<AlertsTable, 'id'>): Promise<number> {
  const row = await db.insertInto('alerts').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The webhooks that receive alerts (not disabled). */
export function activeWebhooks(db: Kysely<Schema>) {
  return db
    .selectFrom('webhooks')
    .select(['id', 'property_id', 'kinds_json'])
    .where('disabled_at', 'is', null)
    .execute();
}

/** Queues one delivery of an alert to a webhook, due at `now`. */
export async function queueDelivery(db: Kysely<Schema>, webhookId: number, alertId: number, now: number) {
  await db
    .insertInto('webhook_deliveries')
    .values({ webhook_id: webhookId, alert_id: alertId, status: 'pending', attempts: 0, next_attempt_at: now })
    .execute();
}

/** A webhook with its delivery counts, or undefined. */
export async function getWebhook(db: Kysely<Schema>, id: number) {
  const hook = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!hook) return undefined;
  const counts = await db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll().as('n')])
    .where('webhook_id', '=', id)
    .groupBy('status')
    .execute();
  const deliveries = { pending: 0, delivered: 0, failed: 0 };
  for (const c of counts) deliveries[c.status] = Number(c.n);
  return { ...hook, id: Number(hook.id), deliveries };
}

/** The ids of every webhook, oldest first. */
export async function listWebhookIds(db: Kysely<Schema>): Promise<number[]> {
  return (await db.selectFrom('webhooks').select('id').orderBy('id').execute()).map((r) => Number(r.id));
}

/** Stores a webhook; returns its id. */
export async function insertWebhook(
  db: Kysely<Schema>,
  values: { url: string; secret: string | null; property_id: number | null; kinds_json: string | null; now: number },
): Promise<number> {
  const { now, ...rest } = values;
  const row = await db
    .insertInto('webhooks')
    .values({ ...rest, created_at: now, disabled_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Sets the alert kinds a webhook is sent (JSON array, null: every kind); false when there is no such webhook. */
export async function setWebhookKinds(db: Kysely<Schema>, id: number, kindsJson: string | null): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ kinds_json: kindsJson })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a webhook (its deliveries go with it); false when there was none. */
export async function deleteWebhook(db: Kysely<Schema>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A delivery claimed by one worker. */
export interface ClaimedDelivery {
  readonly id: number;
  readonly webhook_id: number;
  readonly alert_id: number;
  readonly attempts: number;
  readonly token: string;
}

/** What a delivery claim takes. */
interface DeliveryClaimOptions {
  readonly owner: string;
  readonly now: number;
  /** Deliveries claimed at most. */
  readonly limit: number;
  readonly leaseMs: number;
  /** Deliveries claimed at most per webhook (the ones due first). */
  readonly perWebhook?: number;
  /** Webhooks to leave alone (their lanes in this process are full). */
  readonly skipWebhooks?: readonly number[];
}

/**
 * Claims due deliveries for `owner`, each with its own lease (renewed before each attempt by
 * {@link renewDeliveryLease}): at most `perWebhook` per webhook, so one webhook's backlog never fills the claim.
 */
export async function claimDeliveries(
  db: Kysely<Schema>,
  dialect: DialectName,
  options: DeliveryClaimOptions,
): Promise<ClaimedDelivery[]> {
  const token = `${options.owner}:${randomUUID()}`;
  const storage = storageDialect(dialect);
  const { now, skipWebhooks = [] } = options;
  return storage.write(db, async (trx) => {
    const claimable = (eb: ExpressionBuilder<Schema, 'webhook_deliveries'>) =>
      eb.and([
        eb('status', '=', 'pending'),
        eb('next_attempt_at', '<=', now),
        eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]),
        ...(skipWebhooks.length > 0 ? [eb('webhook_id', 'not in', skipWebhooks)] : []),
      ]);
    // The first `perWebhook` claimable deliveries of each webhook (a window in a subquery: PostgreSQL locks rows of
    // the outer select only, and refuses FOR UPDATE beside a window function).
    const firstOfEach = trx
      .selectFrom((qb) =>
        qb
          .selectFrom('webhook_deliveries')
          .select([
            'id',
            (eb) =>
              eb.fn
                .agg<number>('row_number')
                .over((ob) => ob.partitionBy('webhook_id').orderBy('next_attempt_at').orderBy('id'))
                .as('rank'),
          ])
          .where(claimable)
          .as('ranked'),
      )
      .select('ranked.id')
      .where('ranked.rank', '<=', options.perWebhook ?? options.limit);
    const due = storage.lockForClaim(
      trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('id', 'in', firstOfEach)
        .where(claimable)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(options.limit),
    );
    const ids = (await due.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    const rows = await trx
      .updateTable('webhook_deliveries')
      .set({ lease_owner: token, lease_expires_at: now + options.leaseMs })
      .where('id', 'in', ids)
      .returning(['id', 'webhook_id', 'alert_id', 'attempts'])
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), webhook_id: Number(r.webhook_id), token }));
  });
}

/**
 * Whether a delivery of a webhook not in `skipWebhooks` could be claimed at `now` (a read: the delivery loop asks
 * before it opens a write transaction).
 */
export async function deliveriesDue(
  db: Kysely<Schema>,
  now: number,
  skipWebhooks: readonly number[] = [],
): Promise<boolean> {
  let query = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]));
  if (skipWebhooks.length > 0) query = query.where('webhook_id', 'not in', skipWebhooks);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Extends a claimed delivery's lease to `now + leaseMs`, right before an attempt; false when the claim no longer holds
 * (its lease ran out and another worker claimed it): the attempt must not be made.
 */
export async function renewDeliveryLease(
  db: Kysely<Schema>,
  claim: ClaimedDelivery,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ lease_expires_at: now + leaseMs })
    .where('id', '=', claim.id)
    .where('lease_owner', '=', claim.token)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives a claimed delivery back unattempted (still due). */
export async function releaseDelivery(db: Kysely<Schema>, claim: ClaimedDelivery): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('id', '=', claim.id)
    .where('lease_owner', '=', claim.token)
    .execute();
}

/** The webhook a delivery goes to, or undefined when it was deleted. */
export function deliveryTarget(db: Kysely<Schema>, webhookId: number) {
  return db.selectFrom('webhooks').select(['id', 'url', 'secret']).where('id', '=', webhookId).executeTakeFirst();
}

/** Records an attempt's result, while the claim still holds. */
export async function finishDelivery(
  db: Kysely<Schema>,
  claim: ClaimedDelivery,
  result: Pick<WebhookDeliveriesTable, 'status' | 'attempts' | 'last_error' | 'delivered_at' | 'next_attempt_at'>,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ ...result, lease_owner: null, lease_expires_at: null })
    .where('id', '=', claim.id)
    .where('lease_owner', '=', claim.token)
    .execute();
}

/** A file's URL, or undefined. */
export async function fileUrl(db: Kysely<Schema>, fileId: number): Promise<string | undefined> {
  return (await db.selectFrom('robots_files').select('url').where('id', '=', fileId).executeTakeFirst())?.url;
}

/** Each alert since a time with the properties whose hosts share its file (one row per alert and property). */
export function alertsPerPropertySince(db: Kysely<Schema>, since: number) {
  return db
    .selectFrom('alerts as a')
    .innerJoin('host_files as hf', 'hf.file_id', 'a.file_id')
    .innerJoin('hosts as h', 'h.id', 'hf.host_id')
    .select(['h.property_id', 'a.id', 'a.severity', 'a.created_at'])
    .distinct()
    .where('a.created_at', '>=', since)
    .execute();
}

/** A webhook's newest deliveries with the alert each carried. */
export function webhookDeliveries(db: Kysely<Schema>, webhookId: number, limit: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('alerts as a', 'a.id', 'd.alert_id')
    .select([
      'd.id',
      'd.alert_id',
      'a.kind',
      'a.message',
      'd.status',
      'd.attempts',
      'd.last_error',
      'd.delivered_at',
      'd.next_attempt_at',
    ])
    .where('d.webhook_id', '=', webhookId)
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
}
