/**
 * Creating alerts when a file gets a new version, in the transaction that records the fetch (so a killed worker
 * leaves either the version with its alerts and queued deliveries, or none of them), and reading them back.
 */

import type { Kysely } from 'kysely';
import type { RobotsTxt } from 'robotskit';
import { type AvailabilityOptions, type AvailabilityRules, availabilityRules, fetchStatusOf } from 'robotskit/fetch';
import { lineDiff } from '../analysis/diff.js';
import { describeMeaningChange } from '../analysis/meaning.js';
import { affectedSitemapUrls, failedCount, type SitemapCountOptions } from '../analysis/sitemap-impact.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { activeWebhooks, fileUrl, insertAlert, queueDelivery } from '../storage/alerts.js';
import type { NewVersion, NewVersionHook } from '../storage/record-fetch.js';
import {
  getVersion,
  latestGoodVersion,
  propertiesOfFile,
  type StoredVersion,
  versionBefore,
} from '../storage/report.js';
import { type FetchRecord, headersFromJson, storedErrorOf } from '../storage/rows.js';
import type { Schema } from '../storage/schema.js';
import {
  type ChangeContext,
  contentChanged,
  type DetectedAlert,
  detectAlerts,
  rulesOf,
  type VersionSnapshot,
} from './detect.js';

/**
 * A fetch as the detection reads it, before or as it is recorded: with its body parsed when `robots` is given (a
 * parse already made, or one to make now).
 */
function snapshotOfFetch(fetch: FetchRecord, robots?: RobotsTxt | (() => RobotsTxt)): VersionSnapshot {
  const body = fetch.outcome === 'rules' ? (fetch.body ?? new Uint8Array()) : null;
  return {
    outcome: fetch.outcome,
    httpStatus: fetch.httpStatus,
    body,
    contentType: fetch.headers['content-type'] ?? null,
    error: fetch.error,
    bodyHash: body === null ? null : fetch.bodyHash,
    ...(body !== null && robots !== undefined ? { robots: typeof robots === 'function' ? robots() : robots } : {}),
  };
}

/** A stored version as the detection reads it. */
function snapshotOf(v: StoredVersion): VersionSnapshot {
  return {
    outcome: v.outcome,
    httpStatus: v.http_status,
    body: v.outcome === 'rules' ? (v.content ?? new Uint8Array()) : null,
    contentType: headersFromJson(v.headers_json)['content-type'] ?? null,
    error: storedErrorOf(v),
  };
}

const decoder = new TextDecoder();
/** The text of a version (empty without a body). */
export function textOf(v: StoredVersion): string {
  return v.outcome === 'rules' && v.content ? decoder.decode(v.content) : '';
}

/** An alert as stored. */
interface CreatedAlert extends DetectedAlert {
  readonly id: number;
  readonly fileId: number;
  readonly fileUrl: string;
  readonly versionId: number;
  readonly previousVersionId: number | null;
  readonly diffUrl: string | null;
}

/**
 * Detects and stores the alerts for a new version of a file, and queues a delivery to each webhook that wants them.
 * Runs in the caller's transaction.
 */
async function createAlertsForVersion(
  trx: Kysely<Schema>,
  input: {
    readonly fileId: number;
    readonly versionId: number;
    readonly now: number;
    /** The new version, when the caller has it in hand (the worker does); else it is read. */
    readonly version?: VersionSnapshot;
    /** What {@link prepareChange} found before the transaction (used when it compared with the same version). */
    readonly prepared?: ChangeContext;
    /** The service's availability timeline, for what a failure means (default: the engine's). */
    readonly availability?: AvailabilityRules;
  },
): Promise<CreatedAlert[]> {
  const { fileId, versionId, now } = input;
  const url = await fileUrl(trx, fileId);
  const loaded = input.version ? undefined : await getVersion(trx, versionId);
  const next = input.version ?? (loaded ? snapshotOf(loaded) : undefined);
  if (url === undefined || !next) return [];
  const previousId = await versionBefore(trx, fileId, versionId);
  const previous = previousId === null ? null : ((await getVersion(trx, previousId)) ?? null);
  const lastGoodId =
    previous === null
      ? null
      : previous.outcome === 'disallow-all'
        ? await versionBefore(trx, fileId, versionId, true)
        : previousId;
  const lastGood =
    lastGoodId === null ? null : lastGoodId === previousId ? previous : ((await getVersion(trx, lastGoodId)) ?? null);
  const compared = lastGood ?? previous;
  const changes =
    compared !== null && (compared.outcome === 'rules' || next.outcome === 'rules')
      ? lineDiff(textOf(compared), next.body === null ? '' : decoder.decode(next.body))
      : undefined;
  const origin = new URL(url).origin;
  const detected = detectAlerts(
    origin,
    next,
    previous === null ? null : snapshotOf(previous),
    lastGood ? snapshotOf(lastGood) : null,
    changes ? { added: changes.added, removed: changes.removed } : undefined,
    input.prepared !== undefined && lastGood !== null && input.prepared.againstVersionId === lastGood.id
      ? input.prepared
      : undefined,
    input.availability,
  );
  if (detected.length === 0) return [];

  const propertyIds = (await propertiesOfFile(trx, fileId)).map((p) => Number(p.id));
  const webhooks = await activeWebhooks(trx);
  // The report status of the new version, as the engine gives it: every alert and webhook says the same as the report.
  const fetchStatus = fetchStatusOf({ outcome: next.outcome, status: next.httpStatus, error: next.error ?? null });

  const created: CreatedAlert[] = [];
  for (const a of detected) {
    const againstId =
      previous === null
        ? null
        : a.kind === 'file-unreachable' || a.kind === 'file-recovered'
          ? previous.id
          : (compared ?? previous).id;
    const diffUrl = againstId === null ? null : `/api/versions/${versionId}/diff?against=${againstId}`;
    const alertId = await insertAlert(trx, {
      property_id: null,
      file_id: fileId,
      kind: a.kind,
      severity: a.severity,
      message: a.message,
      details_json: JSON.stringify({ ...a.details, fetchStatus, ...(diffUrl === null ? {} : { diffUrl }) }),
      version_id: versionId,
      previous_version_id: againstId,
      created_at: now,
    });
    for (const hook of webhooks) {
      if (hook.property_id !== null && !propertyIds.includes(Number(hook.property_id))) continue;
      const kinds = hook.kinds_json === null ? null : (JSON.parse(hook.kinds_json) as string[]);
      if (kinds !== null && !kinds.includes(a.kind)) continue;
      await queueDelivery(trx, hook.id, alertId, now);
    }
    created.push({
      ...a,
      id: alertId,
      fileId,
      fileUrl: url,
      versionId,
      previousVersionId: againstId,
      diffUrl,
    });
  }
  return created;
}

/**
 * Before the transaction that records a fetch of file `file`: when `next` changes what a crawler reads compared with
 * the file's newest good version, what it means, and, when the meaning changed, how many sitemap URLs it affects (a
 * bounded walk over `options.fetch`). Null when there is nothing to prepare. Never throws for what a server does; a
 * count that fails is said in the details.
 */
async function prepareChange(
  db: Kysely<Schema>,
  file: { readonly id: number; readonly url: string },
  next: VersionSnapshot,
  options: Omit<SitemapCountOptions, 'signal'>,
  signal?: AbortSignal,
): Promise<ChangeContext | null> {
  if (next.outcome === 'disallow-all') return null;
  const latest = await latestGoodVersion(db, file.id);
  if (!latest) return null;
  // Most fetches find the file as it was: known from the hash, without reading the body.
  const same =
    latest.outcome === next.outcome &&
    (next.outcome !== 'rules' || (next.bodyHash !== undefined && next.bodyHash === latest.bodyHash));
  if (same) return null;
  const againstId = latest.id;
  const against = await getVersion(db, againstId);
  if (!against) return null;
  const before = snapshotOf(against);
  if (!contentChanged(before, next)) return null;
  // Each side parsed once (the new one usually is already), for the meaning and the sitemap count alike.
  const oldRules = rulesOf(before);
  const newRules = rulesOf(next);
  if (oldRules === null || newRules === null) return null;
  const meaning = describeMeaningChange(oldRules, newRules);
  if (meaning.equivalent) return { againstVersionId: againstId, meaning, sitemapUrls: null };
  let sitemapUrls: ChangeContext['sitemapUrls'];
  try {
    sitemapUrls = await affectedSitemapUrls(new URL(file.url).origin, oldRules, newRules, {
      ...options,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    sitemapUrls = failedCount(error);
  }
  return { againstVersionId: againstId, meaning, sitemapUrls };
}

/** Options of {@link createAlertHook}. */
export interface AlertHookOptions {
  /**
   * The SSRF-guarded fetch: with it, a `file-changed` alert whose meaning changed says how many of the site's sitemap
   * URLs change verdict (the walk runs before the recording transaction). Without it, the count is left out.
   */
  readonly fetch?: GuardedFetch;
  /** Sitemap URLs read at most, and the walk's time budget (defaults: `ALERT_SITEMAP_MAX_URLS`, `…_BUDGET_MS`). */
  readonly maxUrls?: number;
  readonly budgetMs?: number;
  /** The service's availability timeline (the engine's options), for what a failure means in the alert's words. */
  readonly availability?: AvailabilityOptions;
}

/** The worker hook that creates alerts for each new version and writes a log line for each. */
export function createAlertHook(
  log: (line: string) => void,
  options: AlertHookOptions = {},
): NewVersionHook<ChangeContext> {
  const availability = availabilityRules(options.availability);
  const hook = async (trx: Kysely<Schema>, info: NewVersion<ChangeContext>) => {
    const { fileId, versionId, now, prepared } = info;
    const version = snapshotOfFetch(info.fetch, info.parsed);
    const input = { fileId, versionId, now, version, availability, ...(prepared === undefined ? {} : { prepared }) };
    for (const alert of await createAlertsForVersion(trx, input)) {
      log(
        `alert ${alert.severity} ${alert.kind} ${alert.fileUrl}: ${alert.message}` +
          (alert.diffUrl === null ? '' : ` (diff: ${alert.diffUrl})`),
      );
    }
  };
  const { fetch } = options;
  if (fetch === undefined) return hook;
  const count = {
    fetch,
    ...(options.maxUrls === undefined ? {} : { maxUrls: options.maxUrls }),
    ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
  };
  const prepare: NonNullable<NewVersionHook<ChangeContext>['prepare']> = (db, file, fetch, robots, signal) =>
    prepareChange(db, file, snapshotOfFetch(fetch, robots), count, signal);
  return Object.assign(hook, { prepare });
}
