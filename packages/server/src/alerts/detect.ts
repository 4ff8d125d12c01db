/**
 * What changed between two versions of a robots.txt file, and what a file is from its first fetch, as alerts. Pure:
 * the versions go in, the alerts come out. The engine decides every question about rules: whether `/` is newly
 * blocked for any crawler (`*`) or Googlebot, whether an asset path is newly disallowed for them, which sitemaps are
 * listed, whether a body is HTML. A change's severity is graded by measured harm: the share of the site's sitemap URLs
 * it newly blocks for a crawler the site depends on (`watched-crawlers.ts`).
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
import { BLOCKING_ALERT_CRAWLER_NAMES, DEPENDED_ON_CRAWLER_NAMES } from '../analysis/watched-crawlers.js';
import { ALERT_KINDS, type AlertKind, type AlertSeverity } from '../storage/alert-kinds.js';
import type { StoredError } from '../storage/rows.js';
import { aiPolicyChange } from './ai-policy.js';

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

/**
 * The last few bodies parsed, by hash: a new version is read as the next one and, at the following fetch, as the
 * one before (its rules' matchers built once, kept in the parse). A 400 KB file costs 100–300 ms to parse and match
 * on the event loop, which a site flapping between two builds paid three times per fetch.
 */
const parsedBodies = new Map<string, RobotsTxt>();
const PARSED_BODIES_KEPT = 4;

/** The rules a version applies (no robots.txt: the empty file); null for a failed fetch, which has none. */
export function rulesOf(v: VersionSnapshot | null): RobotsTxt | null {
  if (v === null) return null;
  if (v.outcome === 'allow-all') return parseRobotsTxt('');
  if (v.outcome !== 'rules') return null;
  const hash = v.bodyHash ?? null;
  const known = hash === null ? undefined : parsedBodies.get(hash);
  const robots = known ?? v.robots ?? parseRobotsTxt(v.body ?? new Uint8Array());
  if (hash !== null) {
    parsedBodies.delete(hash);
    parsedBodies.set(hash, robots);
    if (parsedBodies.size > PARSED_BODIES_KEPT) parsedBodies.delete(parsedBodies.keys().next().value as string);
  }
  return robots;
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
  /** Null when one side has no rules to compare. */
  readonly meaning: MeaningChange | null;
  /** Lines added and removed (the line diff, bounded, worked out off the event loop). */
  readonly lines: LineChanges;
  /** Null when the meaning did not change (nothing to count). */
  readonly sitemapUrls: SitemapUrlsAffected | null;
}

/** Lines added and removed; `complete` false when they were counted as a summary (too many changes for a diff). */
export interface LineChanges {
  readonly added: number;
  readonly removed: number;
  readonly complete?: boolean;
}

function alert(
  kind: AlertKind,
  message: string,
  details: Record<string, unknown> = {},
  severity: AlertSeverity = ALERT_KINDS[kind],
): DetectedAlert {
  return { kind, severity, message, details };
}

/** The worst measured harm of a change: sitemap URLs newly blocked for one crawler the site depends on. */
interface MeasuredHarm {
  readonly crawler: string;
  readonly newlyBlocked: number;
  /** Sitemap URLs compared. */
  readonly checked: number;
  /** `newlyBlocked / checked`. */
  readonly share: number;
}

/** From this share of sitemap URLs newly blocked for a crawler the site depends on, a change is critical. */
const CRITICAL_SHARE = 0.2;

/** The crawler the site depends on for which a change newly blocks the most sitemap URLs; null when none or unknown. */
function measuredHarm(counted: SitemapUrlsAffected | null): MeasuredHarm | null {
  if (counted === null || counted.affected === null || counted.checked === 0) return null;
  const depended = new Set(DEPENDED_ON_CRAWLER_NAMES.map((n) => n.toLowerCase()));
  let worst: MeasuredHarm | null = null;
  for (const c of counted.crawlers) {
    if (c.newlyBlocked === 0 || !depended.has(c.crawler.toLowerCase())) continue;
    if (worst === null || c.newlyBlocked > worst.newlyBlocked) {
      worst = {
        crawler: c.crawler,
        newlyBlocked: c.newlyBlocked,
        checked: counted.checked,
        share: c.newlyBlocked / counted.checked,
      };
    }
  }
  return worst;
}

/** A change's severity from its harm: `critical` from {@link CRITICAL_SHARE}, `warning` below, `info` without any. */
function severityOfHarm(harm: MeasuredHarm | null): AlertSeverity {
  if (harm === null) return 'info';
  return harm.share >= CRITICAL_SHARE ? 'critical' : 'warning';
}

/** `12 of 50 sitemap URLs (24%) newly blocked for Googlebot`. */
function harmText(harm: MeasuredHarm): string {
  const who = harm.crawler === ANY_CRAWLER ? 'every crawler without a group of its own (*)' : harm.crawler;
  return `${harm.newlyBlocked} of ${harm.checked} sitemap URLs (${Math.round(harm.share * 100)}%) newly blocked for ${who}`;
}

/** Whether a file holds no allow or disallow rule at all. */
function hasNoRules(rules: RobotsTxt): boolean {
  return rules.groups.every((g) => g.rules.length === 0);
}

/** What a file is from its first (successful) fetch: HTML, no rules, or the whole site blocked. */
function stateAlerts(origin: string, next: VersionSnapshot): DetectedAlert[] {
  if (next.outcome !== 'rules') return [];
  if (isHtml(next)) {
    return [
      alert(
        'became-html',
        `robots.txt is an HTML page from its first fetch (Content-Type ${next.contentType ?? 'unknown'}): the ` +
          'server probably answers every URL with a page; Google reads whatever lines parse as rules',
        { contentType: next.contentType, firstFetch: true },
      ),
    ];
  }
  const rules = rulesOf(next);
  if (rules === null) return [];
  if (hasNoRules(rules)) {
    return [
      alert(
        'no-rules',
        'robots.txt holds no rule from its first fetch: every URL is allowed for every crawler',
        { firstFetch: true },
        'info',
      ),
    ];
  }
  const blocked = blockedHomeAlert(origin, parseRobotsTxt(''), rules, true);
  return blocked === null ? [] : [blocked];
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
  lineChanges?: LineChanges,
  context?: Pick<ChangeContext, 'meaning' | 'sitemapUrls'>,
): DetectedAlert {
  const [oldRules, newRules] = rules;
  const lines = lineChanges
    ? ` (+${lineChanges.added} −${lineChanges.removed} lines${lineChanges.complete === false ? ', counted in any order: too many changes for a line diff' : ''})`
    : '';
  // What the edit means, not only which lines moved: the engine's exact comparison for a few crawlers.
  const meaning =
    context?.meaning ?? (oldRules === null || newRules === null ? null : describeMeaningChange(oldRules, newRules));
  // How many sitemap URLs it touches (counted before the transaction), said only when the meaning changed.
  const sitemapUrls = meaning !== null && !meaning.equivalent ? (context?.sitemapUrls ?? null) : null;
  const harm = measuredHarm(sitemapUrls);
  const counted =
    [sitemapUrls === null ? null : sitemapUrlsText(sitemapUrls), harm === null ? null : harmText(harm)]
      .filter((t) => t !== null)
      .join('; ') || null;
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
      ...(harm === null ? {} : { harm }),
    },
    severityOfHarm(harm),
  );
}

/** `/` newly disallowed for a crawler whose blocking is an alert of its own. */
function blockedHomeAlert(
  origin: string,
  oldRules: RobotsTxt,
  newRules: RobotsTxt,
  firstFetch = false,
): DetectedAlert | null {
  const home = `${origin}/`;
  const blockedHome = blockingWatched()
    .filter((crawler) => oldRules.isAllowed(home, crawler.token) && !newRules.isAllowed(home, crawler.token))
    .map((crawler) => ({ crawler: crawler.label, line: newRules.explain(home, crawler.token).line }));
  if (blockedHome.length === 0) return null;
  const lines = [...new Set(blockedHome.map((b) => b.line))];
  return alert(
    'disallow-all-added',
    `The whole site is ${firstFetch ? 'blocked from the first fetch' : 'now blocked'} for ` +
      `${blockedHome.map((b) => b.crawler).join(' and ')}: ` +
      `line${lines.length === 1 ? '' : 's'} ${lines.join(', ')} disallow${lines.length === 1 ? 's' : ''} /`,
    { crawlers: blockedHome, ...(firstFetch ? { firstFetch: true } : {}) },
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
  lineChanges?: LineChanges,
  context?: Pick<ChangeContext, 'meaning' | 'sitemapUrls'>,
  availability: AvailabilityRules = availabilityRules(),
): DetectedAlert[] {
  const availabilityChange = availabilityAlerts(next, previous, availability);
  if (previous === null && next.outcome !== 'disallow-all') return stateAlerts(origin, next);
  if (previous === null || next.outcome === 'disallow-all') return availabilityChange ?? [];
  const alerts: DetectedAlert[] = [...(availabilityChange ?? [])];
  const before = lastGood ?? (previous.outcome === 'disallow-all' ? null : previous);
  if (before === null || !contentChanged(before, next)) return alerts;
  const oldRules = rulesOf(before);
  const newRules = rulesOf(next);
  // The meaning check once, for the change alert and the AI policy alert.
  const meaning =
    context?.meaning ?? (oldRules === null || newRules === null ? null : describeMeaningChange(oldRules, newRules));
  alerts.push(
    changeAlert(
      before,
      next,
      [oldRules, newRules],
      lineChanges,
      meaning === null ? undefined : { meaning, sitemapUrls: context?.sitemapUrls ?? null },
    ),
  );
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
  if (next.outcome === 'rules' && !isHtml(next) && hasNoRules(newRules) && !hasNoRules(oldRules)) {
    alerts.push(alert('no-rules', 'robots.txt no longer holds any rule: every URL is allowed for every crawler'));
  }
  const ai = aiPolicyChange(oldRules, newRules, meaning);
  if (ai !== null) alerts.push(alert('ai-policy-changed', ai.message, ai.details, ai.severity));
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
