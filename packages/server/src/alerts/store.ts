/**
 * Creating alerts when a file gets a new version, in the transaction that records the fetch (so a killed worker
 * leaves either the version with its alerts and queued deliveries, or none of them), and reading them back. The same
 * hook stores the version's share of blocked sitemap URLs (the headlines'), measured before the transaction from
 * the one sitemap walk the alert's count reuses.
 */

import type { Kysely } from 'kysely';
import type { RobotsTxt } from 'robotskit';
import { type AvailabilityOptions, type AvailabilityRules, availabilityRules, fetchStatusOf } from 'robotskit/fetch';
import { compareRobots } from 'robotskit/semantics';
import { type LineDiff, lineDiff, summaryDiff } from '../analysis/diff.js';
import { meaningOf, meaningOptions } from '../analysis/meaning.js';
import {
  ALERT_SITEMAP_BUDGET_MS,
  ALERT_SITEMAP_MAX_URLS,
  affectedSitemapUrls,
  failedCount,
  type SitemapCountOptions,
} from '../analysis/sitemap-impact.js';
import { failedShare, sitemapShareOf } from '../analysis/sitemap-share.js';
import { type OriginSitemapUrls, originSitemapUrls } from '../analysis/sitemap-urls.js';
import { AnalysisThreadsClosedError, type FetchingAnalyses } from '../analysis/threads.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { activeWebhooks, fileUrl, insertAlert, queueDelivery } from '../storage/alerts.js';
import { contentKeyOf, type NewVersion, type NewVersionHook } from '../storage/record-fetch.js';
import {
  getVersion,
  latestGoodVersion,
  propertiesOfFile,
  type StoredVersion,
  versionBefore,
} from '../storage/report.js';
import { type FetchRecord, headersFromJson, storedErrorOf } from '../storage/rows.js';
import type { Schema } from '../storage/schema.js';
import { lastContentKey, type SitemapShare, storeSitemapShare } from '../storage/sitemap-shares.js';
import {
  type ChangeContext,
  contentChanged,
  type DetectedAlert,
  detectAlerts,
  type LineChanges,
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
    bodyHash: v.outcome === 'rules' ? v.body_hash : null,
  };
}

const decoder = new TextDecoder();
/** The text of a version (empty without a body). */
export function textOf(v: StoredVersion): string {
  return v.outcome === 'rules' && v.content ? decoder.decode(v.content) : '';
}

/** The text of a snapshot (empty without a body). */
const snapshotText = (v: VersionSnapshot) => (v.body === null ? '' : decoder.decode(v.body));

/** The bytes a snapshot's rules are read from (none for allow-all: the empty file). */
const bytesOf = (v: VersionSnapshot) => (v.outcome === 'rules' ? (v.body ?? new Uint8Array()) : new Uint8Array());

/** A diff's counts as an alert says them (`complete` only when the diff was a summary). */
const lineChangesOf = (diff: LineDiff): LineChanges => ({
  added: diff.added,
  removed: diff.removed,
  ...(diff.complete ? {} : { complete: false }),
});

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
  const prepared =
    input.prepared !== undefined && compared !== null && input.prepared.againstVersionId === compared.id
      ? input.prepared
      : undefined;
  // The line diff was worked out before this transaction, bounded and off the event loop; when the version compared
  // with is not the one it was prepared against (another worker recorded one meanwhile), the linear summary is used.
  const changes =
    compared !== null && (compared.outcome === 'rules' || next.outcome === 'rules')
      ? (prepared?.lines ?? lineChangesOf(summaryDiff(textOf(compared), snapshotText(next))))
      : undefined;
  const origin = new URL(url).origin;
  const detected = detectAlerts(
    origin,
    next,
    previous === null ? null : snapshotOf(previous),
    lastGood ? snapshotOf(lastGood) : null,
    changes,
    prepared !== undefined && lastGood !== null ? prepared : undefined,
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
      details_json: JSON.stringify({
        ...a.details,
        fetchStatus,
        errorKind: next.error?.kind ?? null,
        ...(diffUrl === null ? {} : { diffUrl }),
      }),
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

/** What the work before the recording transaction is given. */
type PrepareOptions = Omit<SitemapCountOptions, 'signal' | 'fetch' | 'walk'> & {
  readonly fetch?: GuardedFetch;
  readonly analysisThreads?: FetchingAnalyses;
  readonly now?: () => number;
};

/** What the hook's `prepare` hands to the recording transaction. */
export interface PreparedVersion {
  /** What the new version changes, for the alerts; null when there is nothing to compare. */
  readonly change: ChangeContext | null;
  /** The new version's share of blocked sitemap URLs; null without a fetch, or for a version without rules. */
  readonly share: SitemapShare | null;
}

/**
 * Before the transaction that records fetch `record` of file `file`, when it makes a new version with rules: one
 * bounded walk of the sitemaps the version lists (else /sitemap.xml), and the share of their URLs it blocks for each
 * watched crawler. The walk is handed on for the alert's count. Never throws for what a server does.
 */
async function prepareShare(
  db: Kysely<Schema>,
  file: { readonly id: number; readonly url: string },
  record: FetchRecord,
  next: VersionSnapshot,
  options: PrepareOptions,
  signal?: AbortSignal,
): Promise<{ share: SitemapShare; walk: OriginSitemapUrls | undefined; robots: RobotsTxt | undefined } | null> {
  if (options.fetch === undefined || record.outcome !== 'rules' || next.body === null) return null;
  // Only a new version gets a share: most fetches find the file as its last fetch did (known from the key alone).
  if ((await lastContentKey(db, file.id)) === contentKeyOf(record.outcome, record.bodyHash)) return null;
  const now = (options.now ?? Date.now)();
  let robots: RobotsTxt | undefined;
  try {
    robots = rulesOf(next) as RobotsTxt;
    const walk = await originSitemapUrls(new URL(file.url).origin, [robots], {
      fetch: options.fetch,
      maxUrls: options.maxUrls ?? ALERT_SITEMAP_MAX_URLS,
      budgetMs: options.budgetMs ?? ALERT_SITEMAP_BUDGET_MS,
      ...(signal ? { signal } : {}),
    });
    const share = await sitemapShareOf(walk, next.body, robots, {
      now,
      ...(options.analysisThreads ? { analysisThreads: options.analysisThreads } : {}),
      ...(signal ? { signal } : {}),
    });
    return { share, walk, robots };
  } catch (error) {
    // Cut short by the service stopping: not measured, and no failure to keep.
    if (signal?.aborted || error instanceof AnalysisThreadsClosedError) return null;
    return { share: failedShare(error, now), walk: undefined, robots };
  }
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
  options: PrepareOptions,
  signal?: AbortSignal,
  walk?: OriginSitemapUrls,
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
  // The line counts: bounded, in a diff thread when the service has them (no hunks needed, so no context lines).
  const [oldText, newText] = [textOf(against), snapshotText(next)];
  const lines = lineChangesOf(
    options.analysisThreads ? await options.analysisThreads.diff(oldText, newText, 0) : lineDiff(oldText, newText, 0),
  );
  // Each side parsed once (the new one usually is already), for the meaning and the sitemap count alike.
  const oldRules = rulesOf(before);
  const newRules = rulesOf(next);
  if (oldRules === null || newRules === null)
    return { againstVersionId: againstId, meaning: null, sitemapUrls: null, lines };
  // The exact comparison (bounded), in a thread when the service has them: each side parsed there from its bytes.
  const compare = meaningOptions(oldRules, newRules);
  const meaning = meaningOf(
    options.analysisThreads
      ? await options.analysisThreads.compare(bytesOf(before), bytesOf(next), compare)
      : compareRobots(oldRules, newRules, compare),
  );
  if (meaning.equivalent || options.fetch === undefined) {
    return { againstVersionId: againstId, meaning, sitemapUrls: null, lines };
  }
  let sitemapUrls: ChangeContext['sitemapUrls'];
  try {
    sitemapUrls = await affectedSitemapUrls(
      new URL(file.url).origin,
      oldRules,
      newRules,
      { ...options, fetch: options.fetch, ...(signal ? { signal } : {}), ...(walk ? { walk } : {}) },
      meaning.changed,
    );
  } catch (error) {
    sitemapUrls = failedCount(error);
  }
  return { againstVersionId: againstId, meaning, sitemapUrls, lines };
}

/** `base`'s guard over a pool of its own, opened at the first request (most fetches walk nothing); close it after. */
function ownPool(base: GuardedFetch): GuardedFetch {
  let own: GuardedFetch | undefined;
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    own ??= base.withOwnPool?.() ?? base;
    return own(input, init);
  };
  return Object.assign(fetch, {
    close: async () => {
      if (own !== undefined && own !== base) await own.close();
    },
  });
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
  /** The clock a share's measuring time is read from (epoch ms). @default Date.now */
  readonly now?: () => number;
  /** Where the line diff of a changed file runs (before the transaction); without it, on the calling thread. */
  readonly analysisThreads?: FetchingAnalyses;
}

/** The worker hook that creates alerts for each new version and writes a log line for each. */
export function createAlertHook(
  log: (line: string) => void,
  options: AlertHookOptions = {},
): NewVersionHook<PreparedVersion> {
  const availability = availabilityRules(options.availability);
  const hook = async (trx: Kysely<Schema>, info: NewVersion<PreparedVersion>) => {
    const { fileId, versionId, now } = info;
    const prepared = info.prepared?.change ?? undefined;
    if (info.prepared?.share) await storeSitemapShare(trx, versionId, info.prepared.share);
    const version = snapshotOfFetch(info.fetch, info.parsed);
    const input = { fileId, versionId, now, version, availability, ...(prepared === undefined ? {} : { prepared }) };
    for (const alert of await createAlertsForVersion(trx, input)) {
      log(
        `alert ${alert.severity} ${alert.kind} ${alert.fileUrl}: ${alert.message}` +
          (alert.diffUrl === null ? '' : ` (diff: ${alert.diffUrl})`),
      );
    }
  };
  // The work before the transaction: the line diff always; the share and the sitemap count when there is a fetch.
  const count: PrepareOptions = {
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.analysisThreads === undefined ? {} : { analysisThreads: options.analysisThreads }),
    ...(options.maxUrls === undefined ? {} : { maxUrls: options.maxUrls }),
    ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
  };
  const prepare: NonNullable<NewVersionHook<PreparedVersion>['prepare']> = async (db, file, fetch, robots, signal) => {
    // The walks read over a connection pool of their own, closed after them: a robots.txt fetch never picks up a
    // connection a walk left open (one the server closed meanwhile would fail that fetch).
    const walkFetch = count.fetch === undefined ? undefined : ownPool(count.fetch);
    const walking = walkFetch === undefined ? count : { ...count, fetch: walkFetch };
    try {
      const measured = await prepareShare(db, file, fetch, snapshotOfFetch(fetch, robots), walking, signal);
      // The body parsed once, for the share and the meaning alike (an unchanged body is not parsed for either).
      const next = snapshotOfFetch(fetch, measured?.robots ?? robots);
      const change = await prepareChange(db, file, next, walking, signal, measured?.walk);
      return change === null && measured === null ? null : { change, share: measured?.share ?? null };
    } finally {
      await walkFetch?.close();
    }
  };
  return Object.assign(hook, { prepare });
}
