/**
 * The robots.txt in force over time from a stored fetch history (the report service's, read by `robotskit logs
 * --service` and by the service itself): what governed crawling at each moment is the engine's `effectivePolicy` over
 * that history with the service's availability periods: a fetched file's rules; allow all while no robots.txt was
 * found; during an outage, disallow all for the first 12 hours, then the last good version until 30 days, then allow
 * all if the server still answered. Each such period becomes a {@link RobotsVersion}: a request is judged by the
 * period it fell in, and one before the first stored fetch is counted, not judged.
 */

import {
  type AvailabilityOptions,
  type EffectivePolicy,
  effectivePolicy,
  type FetchObservation,
} from '../fetch/policy/availability.js';
import { parseRobotsTxt, type RobotsTxt } from '../robots-txt/robots-txt.js';
import type { RobotsVersion } from './versions.js';

/** A fetch as the timeline reads it, with the stored version whose content it saw (null for a failure). */
export interface StoredFetch extends FetchObservation {
  readonly versionId: number | null;
}

/** A stretch of time under one policy. */
export interface PolicyPeriod {
  readonly since: number;
  readonly mode: EffectivePolicy['mode'];
  readonly reason: EffectivePolicy['reason'];
  /** The version whose rules apply (mode `rules`), else null. */
  readonly versionId: number | null;
  /** When the state began (the first fetch of the run; for failures, the first failure). */
  readonly stateSince: number;
}

/**
 * The policy periods of a fetch history, oldest first: the engine's policy after each fetch, and again at each time
 * boundary it names (`until`: 12 hours, 30 days into an outage) before the next fetch. Periods in a row with the same
 * policy are one.
 */
export function policyPeriods(history: readonly StoredFetch[], options: AvailabilityOptions = {}): PolicyPeriod[] {
  const fetches = history.filter((f) => f.error?.kind !== 'aborted').sort((a, b) => a.fetchedAt - b.fetchedAt);
  const periods: PolicyPeriod[] = [];
  let runStart = 0;
  for (let i = 0; i < fetches.length; i++) {
    const latest = fetches[i]!;
    if (i > 0 && fetches[i - 1]!.outcome !== latest.outcome) runStart = i;
    // Only three fetches decide (the engine's own compaction): the last one before the run, its first, the latest.
    const window = [...(runStart > 0 ? [fetches[runStart - 1]!] : []), fetches[runStart]!];
    if (runStart !== i) window.push(latest);
    const end = i + 1 < fetches.length ? fetches[i + 1]!.fetchedAt : Number.POSITIVE_INFINITY;
    let at = latest.fetchedAt;
    for (;;) {
      const policy = effectivePolicy(window, at, options);
      const period: PolicyPeriod = {
        since: at,
        mode: policy.mode,
        reason: policy.reason,
        versionId: policy.mode === 'rules' ? (policy.source?.versionId ?? null) : null,
        stateSince: policy.since ?? at,
      };
      const last = periods[periods.length - 1];
      if (
        last === undefined ||
        last.mode !== period.mode ||
        last.reason !== period.reason ||
        last.versionId !== period.versionId
      ) {
        periods.push(period);
      }
      if (policy.until === null || policy.until >= end) break;
      at = policy.until;
    }
  }
  return periods;
}

const DISALLOW_ALL = parseRobotsTxt('User-agent: *\nDisallow: /\n');
const ALLOW_ALL = parseRobotsTxt('');

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** How a period names itself in violations and the summary. */
function labelOf(period: PolicyPeriod, fetchedAt: ReadonlyMap<number, number>): string {
  if (period.mode === 'rules') {
    const id = period.versionId!;
    const at = fetchedAt.get(id);
    const version = `version ${id}${at === undefined ? '' : ` of ${iso(at)}`}`;
    return period.reason === 'fetched' ? version : `${version} (unreachable since ${iso(period.stateSince)})`;
  }
  if (period.mode === 'allow-all') {
    return period.reason === 'not-found'
      ? `no robots.txt since ${iso(period.stateSince)} (allow all)`
      : `unreachable since ${iso(period.stateSince)} (allow all)`;
  }
  return `unreachable since ${iso(period.stateSince)} (disallow all)`;
}

/** The versions `logs` judges by, from the periods and the bytes of each version that applies. */
export function periodVersions(
  periods: readonly PolicyPeriod[],
  rules: ReadonlyMap<number, RobotsTxt>,
  fetchedAt: ReadonlyMap<number, number>,
): RobotsVersion[] {
  return periods.map((period) => ({
    label: labelOf(period, fetchedAt),
    since: period.since,
    robots:
      period.mode === 'rules' ? rules.get(period.versionId!)! : period.mode === 'allow-all' ? ALLOW_ALL : DISALLOW_ALL,
  }));
}

/** A stored fetch as {@link storedHistory} reads it: the version it started, when its content was new. */
export interface HistoryFetch extends FetchObservation {
  readonly ownVersion: number | null;
  readonly id: number;
}

/** A stored version as {@link storedHistory} reads it; `fetchId` null once its fetch was pruned. */
export interface HistoryVersion {
  readonly id: number;
  readonly fetchId: number | null;
  readonly fetchedAt: number;
  readonly outcome: FetchObservation['outcome'];
  readonly status: number | null;
}

const NO_HEADERS = { cacheControl: null, retryAfter: null, date: null } as const;

/**
 * A file's stored fetches and versions as one history, each fetch with the version whose content it saw: a version
 * whose fetch was pruned stands for it, and a fetch that started no version saw the content of the one before it.
 */
export function storedHistory(fetches: readonly HistoryFetch[], versions: readonly HistoryVersion[]): StoredFetch[] {
  const seen = new Set(fetches.map((f) => f.id));
  const entries: (FetchObservation & { ownVersion: number | null })[] = [
    ...fetches.map(({ id: _, ...f }) => f),
    ...versions
      .filter((v) => v.fetchId === null || !seen.has(v.fetchId))
      .map((v) => ({
        fetchedAt: v.fetchedAt,
        outcome: v.outcome,
        status: v.status,
        error: null,
        headers: NO_HEADERS,
        ownVersion: v.id,
      })),
  ].sort((a, b) => a.fetchedAt - b.fetchedAt);
  const oldestFirst = [...versions].sort((a, b) => a.fetchedAt - b.fetchedAt);
  let current: number | null = null;
  return entries.map(({ ownVersion, ...entry }) => {
    if (ownVersion !== null) current = ownVersion;
    else if (current === null) current = oldestFirst.filter((v) => v.fetchedAt <= entry.fetchedAt).pop()?.id ?? null;
    return { ...entry, versionId: entry.outcome === 'disallow-all' ? null : current };
  });
}
