/**
 * What changed between two versions of a robots.txt file, as alerts. Pure: the versions go in, the alerts come out.
 * The engine decides every question about rules: whether `/` is newly blocked for any crawler (`*`) or Googlebot,
 * whether an asset path is newly disallowed for them, which sitemaps are listed, whether a body is HTML.
 */

import {
  ANY_CRAWLER,
  type CrawlerInput,
  isHtmlContentType,
  looksLikeHtml,
  parseRobotsTxt,
  type RobotsTxt,
  resolveCrawler,
} from 'robotskit';
import {
  type AvailabilityRules,
  availabilityRules,
  describeFetchOutcome,
  type RetrievalOutcome,
} from 'robotskit/fetch';
import { describeMeaningChange, type MeaningChange } from '../analysis/meaning.js';
import { type SitemapUrlsAffected, sitemapUrlsText } from '../analysis/sitemap-impact.js';
import { BLOCKING_ALERT_CRAWLER_NAMES } from '../analysis/watched-crawlers.js';
import { ALERT_KINDS, type AlertKind, type AlertSeverity } from '../storage/alert-kinds.js';
import type { StoredError } from '../storage/rows.js';

/** One version as the detection reads it. */
export interface VersionSnapshot {
  readonly outcome: RetrievalOutcome;
  readonly httpStatus: number | null;
  /** The bytes for `rules`, else null. */
  readonly body: Uint8Array | null;
  readonly contentType: string | null;
  /** The engine's error of the fetch (from the fetch row), when known. */
  readonly error?: StoredError | null;
  /** The body already parsed, when the caller has it (the worker parses each fetched body once). */
  readonly robots?: RobotsTxt;
  /** The body's SHA-256 as stored (`contentHash`), when the caller has it. */
  readonly bodyHash?: string | null;
}

/** An alert found. */
export interface DetectedAlert {
  readonly kind: AlertKind;
  readonly severity: AlertSeverity;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

/** The crawlers whose blocking is an alert of its own (`watched-crawlers.ts`), as the engine reads their names. */
let blockingCrawlers: { readonly label: string; readonly token: CrawlerInput }[] | null = null;
function blockingWatched() {
  blockingCrawlers ??= BLOCKING_ALERT_CRAWLER_NAMES.map((name) => ({
    label: name === ANY_CRAWLER ? 'every crawler (*)' : name,
    token: resolveCrawler(name).input,
  }));
  return blockingCrawlers;
}

const ASSET_DIR =
  /(^|\/)(css|js|javascripts?|scripts?|styles?|stylesheets?|static|assets|wp-includes|wp-content\/(themes|plugins)|_next\/static)(\/|\*|\$|$)/i;
const ASSET_FILE = /\.(css|js|mjs)(\$|\*)?$/i;

/** Whether a disallowed pattern looks like it blocks stylesheets or scripts. */
export function looksLikeAssetPattern(pattern: string): boolean {
  return ASSET_DIR.test(pattern) || ASSET_FILE.test(pattern);
}

/** A URL path the pattern matches (wildcards filled, the end anchor dropped), to ask the engine about. */
function sampleOf(pattern: string): string {
  let path = pattern.replace(/\$$/, '').replaceAll('*', 'x');
  if (!path.startsWith('/')) path = `/${path}`;
  if (path.endsWith('/')) path += 'main.css';
  return path;
}

function isHtml(v: VersionSnapshot): boolean {
  return v.outcome === 'rules' && (isHtmlContentType(v.contentType) || (v.body !== null && looksLikeHtml(v.body)));
}

/** The rules a version applies (no robots.txt: the empty file); null for a failed fetch, which has none. */
export function rulesOf(v: VersionSnapshot | null): RobotsTxt | null {
  if (v === null) return null;
  if (v.outcome === 'rules') return v.robots ?? parseRobotsTxt(v.body ?? new Uint8Array());
  if (v.outcome === 'allow-all') return parseRobotsTxt('');
  return null;
}

/** A version's outcome in the engine's words (`fetched (HTTP 200)`, `server error (HTTP 503)`, `host not found`). */
function describe(v: VersionSnapshot): string {
  return describeFetchOutcome({ outcome: v.outcome, status: v.httpStatus, error: v.error ?? null }).summary;
}

/** Whether `next` differs from `before` in what a crawler reads: the outcome, or the bytes of a fetched file. */
export function contentChanged(before: VersionSnapshot, next: VersionSnapshot): boolean {
  return before.outcome !== next.outcome || (next.outcome === 'rules' && !sameBytes(before.body, next.body));
}

/**
 * What was worked out for a new version before the transaction that records it (the alert hook's `prepare`): its
 * meaning, and the sitemap URLs whose verdict changes, which needs the network and so never runs inside the
 * transaction. Used only when it was prepared against the same earlier version the detection compares with.
 */
export interface ChangeContext {
  /** The version it was compared with: the file's newest version that was not a failed fetch. */
  readonly againstVersionId: number;
  readonly meaning: MeaningChange;
  /** Null when the meaning did not change (nothing to count). */
  readonly sitemapUrls: SitemapUrlsAffected | null;
}

function alert(kind: AlertKind, message: string, details: Record<string, unknown> = {}): DetectedAlert {
  return { kind, severity: ALERT_KINDS[kind], message, details };
}

/** The alerts of a failure (`next` failed) or of a recovery; null when `next` is neither. */
function availabilityAlerts(
  next: VersionSnapshot,
  previous: VersionSnapshot | null,
  availability: AvailabilityRules,
): DetectedAlert[] | null {
  if (previous === null) {
    // A file that fails from its very first fetch: nothing good to fall back on, so crawling stays stopped.
    if (next.outcome !== 'disallow-all') return [];
    const message =
      `robots.txt could not be fetched from its first fetch on: ${describe(next)}. Google does not crawl the ` +
      'site until a fetch succeeds';
    return [alert('file-unreachable', message, { firstFetch: true })];
  }
  if (next.outcome === 'disallow-all') {
    if (previous.outcome === 'disallow-all') return [];
    const message =
      `robots.txt became unreachable: ${describe(next)}, was ${describe(previous)}. Google stops crawling the ` +
      `site for ${availability.words.disallowPeriod}, then uses the last good version for up to ` +
      availability.words.lastGoodVersionPeriod;
    return [alert('file-unreachable', message)];
  }
  if (previous.outcome !== 'disallow-all') return null;
  return [alert('file-recovered', `robots.txt is reachable again: ${describe(next)}, was ${describe(previous)}`)];
}

/** The `file-changed` alert: the outcome or lines that changed, what that means, how many sitemap URLs it touches. */
function changeAlert(
  before: VersionSnapshot,
  next: VersionSnapshot,
  rules: readonly [RobotsTxt | null, RobotsTxt | null],
  lineChanges?: { added: number; removed: number },
  context?: Pick<ChangeContext, 'meaning' | 'sitemapUrls'>,
): DetectedAlert {
  const [oldRules, newRules] = rules;
  const lines = lineChanges ? ` (+${lineChanges.added} −${lineChanges.removed} lines)` : '';
  // What the edit means, not only which lines moved: the engine's exact comparison for a few crawlers.
  const meaning =
    context?.meaning ?? (oldRules === null || newRules === null ? null : describeMeaningChange(oldRules, newRules));
  // How many sitemap URLs it touches (counted before the transaction), said only when the meaning changed.
  const sitemapUrls = meaning !== null && !meaning.equivalent ? (context?.sitemapUrls ?? null) : null;
  const counted = sitemapUrls === null ? null : sitemapUrlsText(sitemapUrls);
  return alert(
    'file-changed',
    (before.outcome === next.outcome
      ? `robots.txt changed${lines}`
      : `robots.txt changed: now ${describe(next)}, was ${describe(before)}${lines}`) +
      (meaning === null ? '' : `: ${meaning.sentence}`) +
      (counted === null ? '' : `; ${counted}`),
    {
      ...(lineChanges ? { ...lineChanges } : {}),
      ...(meaning === null ? {} : { meaning: meaning.details }),
      ...(sitemapUrls === null ? {} : { sitemapUrls }),
    },
  );
}

/** `/` newly disallowed for a crawler whose blocking is an alert of its own. */
function blockedHomeAlert(origin: string, oldRules: RobotsTxt, newRules: RobotsTxt): DetectedAlert | null {
  const home = `${origin}/`;
  const blockedHome = blockingWatched()
    .filter((crawler) => oldRules.isAllowed(home, crawler.token) && !newRules.isAllowed(home, crawler.token))
    .map((crawler) => ({ crawler: crawler.label, line: newRules.explain(home, crawler.token).line }));
  if (blockedHome.length === 0) return null;
  const lines = [...new Set(blockedHome.map((b) => b.line))];
  return alert(
    'disallow-all-added',
    `The whole site is now blocked for ${blockedHome.map((b) => b.crawler).join(' and ')}: ` +
      `line${lines.length === 1 ? '' : 's'} ${lines.join(', ')} disallow${lines.length === 1 ? 's' : ''} /`,
    { crawlers: blockedHome },
  );
}

/** `Sitemap:` lines gone. */
function sitemapsRemovedAlert(oldRules: RobotsTxt, newRules: RobotsTxt): DetectedAlert | null {
  const removed = oldRules.sitemaps.filter((s) => !newRules.sitemaps.includes(s));
  if (removed.length === 0) return null;
  return alert('sitemap-removed', `Sitemap line${removed.length === 1 ? '' : 's'} removed: ${removed.join(', ')}`, {
    sitemaps: removed,
  });
}

/** Stylesheet or script paths newly disallowed for a crawler whose blocking is an alert of its own. */
function assetsBlockedAlert(origin: string, oldRules: RobotsTxt, newRules: RobotsTxt): DetectedAlert | null {
  const blocked: { crawler: string; pattern: string; line: number }[] = [];
  for (const crawler of blockingWatched()) {
    for (const group of newRules.selectGroups(crawler.token).groups) {
      for (const rule of group.rules) {
        if (rule.kind !== 'disallow' || rule.pattern === '' || !looksLikeAssetPattern(rule.pattern)) continue;
        const sample = `${origin}${sampleOf(rule.pattern)}`;
        if (!newRules.isAllowed(sample, crawler.token) && oldRules.isAllowed(sample, crawler.token)) {
          if (!blocked.some((b) => b.pattern === rule.pattern)) {
            blocked.push({ crawler: crawler.label, pattern: rule.pattern, line: rule.line });
          }
        }
      }
    }
  }
  if (blocked.length === 0) return null;
  return alert(
    'assets-blocked',
    `Stylesheet or script paths newly disallowed: ${blocked
      .map((b) => `${b.pattern} (line ${b.line}, ${b.crawler})`)
      .join(', ')}. Google needs CSS and JavaScript to render pages`,
    { rules: blocked },
  );
}

/**
 * The alerts for `next`, the new version of a file, against `previous` (the version before it; null for the first)
 * and `lastGood` (the newest version before `next` that was not a failure, for comparing rules across an outage).
 * `origin` is the file's origin (`https://example.com`), for the URLs asked about; `availability`, the service's
 * availability timeline, for what a failure means.
 */
export function detectAlerts(
  origin: string,
  next: VersionSnapshot,
  previous: VersionSnapshot | null,
  lastGood: VersionSnapshot | null,
  lineChanges?: { added: number; removed: number },
  context?: Pick<ChangeContext, 'meaning' | 'sitemapUrls'>,
  availability: AvailabilityRules = availabilityRules(),
): DetectedAlert[] {
  const availabilityChange = availabilityAlerts(next, previous, availability);
  if (previous === null || next.outcome === 'disallow-all') return availabilityChange ?? [];
  const alerts: DetectedAlert[] = [...(availabilityChange ?? [])];
  const before = lastGood ?? (previous.outcome === 'disallow-all' ? null : previous);
  if (before === null || !contentChanged(before, next)) return alerts;
  const oldRules = rulesOf(before);
  const newRules = rulesOf(next);
  alerts.push(changeAlert(before, next, [oldRules, newRules], lineChanges, context));
  if (isHtml(next) && !isHtml(before)) {
    alerts.push(
      alert(
        'became-html',
        `robots.txt is now an HTML page (Content-Type ${next.contentType ?? 'unknown'}): the server probably answers ` +
          'every URL with a page; Google reads whatever lines parse as rules',
        { contentType: next.contentType },
      ),
    );
  }
  if (oldRules === null || newRules === null) return alerts;
  for (const found of [
    blockedHomeAlert(origin, oldRules, newRules),
    sitemapsRemovedAlert(oldRules, newRules),
    assetsBlockedAlert(origin, oldRules, newRules),
  ]) {
    if (found !== null) alerts.push(found);
  }
  return alerts;
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
