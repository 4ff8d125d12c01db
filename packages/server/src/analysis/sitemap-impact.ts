/**
 * How many of a site's sitemap URLs an edit of its robots.txt changes, for the `file-changed` alert ("sitemap URLs
 * affected: 120"). The tester's own parts do the work: its sitemap walk (`tester/sitemap-urls.ts`, over the
 * SSRF-guarded fetch, with a cap on URLs and a time budget) and its verdict comparison (`tester/impact.ts`), for the
 * crawlers the alert's meaning sentence speaks for. It needs the network, so the worker runs it before the
 * transaction that records the version (the alert hook's `prepare`), and only when the meaning changed; a sitemap
 * that cannot be read never fails or holds up the fetch: the count is then unknown, and says why. The walk the new
 * version's share of blocked sitemap URLs was measured on (`sitemap-share.ts`) is reused when it read the same
 * sitemaps, so a new version's sitemaps are walked once.
 */

import type { RobotsTxt } from 'robotskit';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { compareVerdicts, type RulesSide } from './impact.js';
import { type OriginSitemapUrls, originSitemapUrls } from './sitemap-urls.js';
import { crawlersNamed } from './verdicts.js';
import { ALERT_CRAWLER_NAMES } from './watched-crawlers.js';

/** Sitemap URLs read at most for one alert. */
export const ALERT_SITEMAP_MAX_URLS = 10_000;
/** The walk's time budget for one alert (every sitemap file included). */
export const ALERT_SITEMAP_BUDGET_MS = 20_000;

/**
 * What the count is: `counted` (every URL read was compared), `partial` (some sitemaps could not be read; the URLs
 * of the others were), `unreachable` (no sitemap could be read: unknown), `no-sitemap` (the file lists none and
 * /sitemap.xml has no URLs: nothing to count, left out of the sentence), `failed` (the count itself failed: left out).
 */
type SitemapCountStatus = 'counted' | 'partial' | 'unreachable' | 'no-sitemap' | 'failed';

/** The sitemap URLs an edit changes, as the alert's details keep it. */
export interface SitemapUrlsAffected {
  readonly status: SitemapCountStatus;
  /** URLs whose verdict changes for at least one of the alert's crawlers; null when unknown. */
  readonly affected: number | null;
  /** Sitemap URLs of the file's origin compared. */
  readonly checked: number;
  /** The walk stopped at its cap on URLs or its time budget: there may be more URLs. */
  readonly capped: boolean;
  /** The sitemaps read: those either version lists, else /sitemap.xml. */
  readonly sitemaps: readonly string[];
  /** Per crawler: URLs newly blocked and newly allowed. */
  readonly crawlers: readonly { crawler: string; newlyBlocked: number; newlyAllowed: number }[];
  /** Why the count is unknown or partial, in words; null when it is whole. */
  readonly reason: string | null;
  /** Errors of the walk, in words (at most 5). */
  readonly problems: readonly string[];
}

/** Options of {@link affectedSitemapUrls}. */
export interface SitemapCountOptions {
  /** The SSRF-guarded fetch the worker fetches robots.txt with. */
  readonly fetch: GuardedFetch;
  /** Stops the walk (the worker is stopping). */
  readonly signal?: AbortSignal;
  /** @default ALERT_SITEMAP_MAX_URLS */
  readonly maxUrls?: number;
  /** @default ALERT_SITEMAP_BUDGET_MS */
  readonly budgetMs?: number;
  /**
   * A walk already made for the new version (its share of blocked sitemap URLs): used instead of walking again when
   * it started from the same sitemaps this count reads.
   */
  readonly walk?: OriginSitemapUrls;
}

/** The sitemaps a count of `files` reads: those they list, else the origin's /sitemap.xml (as `originSitemapUrls`). */
function sitemapsToRead(origin: string, files: readonly RobotsTxt[]): string[] {
  const listed = new Set(files.flatMap((f) => f.sitemaps));
  return listed.size > 0 ? [...listed] : [`${origin}/sitemap.xml`];
}

/** Whether two lists hold the same sitemaps. */
function sameSitemaps(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((s) => set.has(s));
}

const rulesSide = (robots: RobotsTxt): RulesSide => ({ robots, mode: 'rules', lines: null });

/** Crawlers counted for at most (the meaning check names those that changed; most changes touch a few). */
const MAX_COUNTED_CRAWLERS = 40;

/**
 * Reads the sitemaps `before` or `after` lists (or `origin`/sitemap.xml), keeps the URLs of `origin`, and counts those
 * whose verdict changes from `before` to `after` for `crawlerNames` (default: the alert's watched crawlers; the alert
 * hook passes the crawlers the meaning check found deciding differently). Never throws for what a server does.
 */
export async function affectedSitemapUrls(
  origin: string,
  before: RobotsTxt,
  after: RobotsTxt,
  options: SitemapCountOptions,
  crawlerNames: readonly string[] = ALERT_CRAWLER_NAMES,
): Promise<SitemapUrlsAffected> {
  const reuse =
    options.walk !== undefined && sameSitemaps(options.walk.sitemaps, sitemapsToRead(origin, [before, after]));
  const walk = reuse
    ? (options.walk as OriginSitemapUrls)
    : await originSitemapUrls(origin, [before, after], {
        fetch: options.fetch,
        maxUrls: options.maxUrls ?? ALERT_SITEMAP_MAX_URLS,
        budgetMs: options.budgetMs ?? ALERT_SITEMAP_BUDGET_MS,
        ...(options.signal ? { signal: options.signal } : {}),
      });
  const base = {
    checked: walk.urls.length,
    capped: walk.capped,
    sitemaps: walk.sitemaps,
    problems: walk.problems.slice(0, 5),
  };
  if (walk.noSitemap) {
    return {
      status: 'no-sitemap',
      affected: null,
      crawlers: [],
      reason: `no sitemap: neither version lists one and ${origin}/sitemap.xml has no URLs`,
      ...base,
    };
  }
  if (walk.urls.length === 0 && walk.unreachable > 0) {
    return { status: 'unreachable', affected: null, crawlers: [], reason: 'sitemap unreachable', ...base };
  }
  const crawlers = crawlersNamed(crawlerNames.slice(0, MAX_COUNTED_CRAWLERS));
  const compared = await compareVerdicts(rulesSide(before), rulesSide(after), walk.urls, crawlers, 0, options.signal);
  const partial = walk.unreachable > 0;
  return {
    status: partial ? 'partial' : 'counted',
    affected: compared.changedUrls,
    crawlers: compared.summary.map((s) => ({
      crawler: s.userAgent,
      newlyBlocked: s.newlyBlocked,
      newlyAllowed: s.newlyAllowed,
    })),
    reason: partial
      ? `${walk.unreachable} of the sitemaps could not be read; the URLs of the others were counted`
      : walk.capped
        ? `the walk stopped after ${walk.urls.length} URLs (its cap or its time budget); there may be more`
        : null,
    ...base,
  };
}

/** A count that failed (a bug, or the database), for the details: the alert is created all the same. */
export function failedCount(error: unknown): SitemapUrlsAffected {
  return {
    status: 'failed',
    affected: null,
    checked: 0,
    capped: false,
    sitemaps: [],
    crawlers: [],
    reason: `not counted: ${error instanceof Error ? error.message : String(error)}`,
    problems: [],
  };
}

/** The words the alert's sentence ends with ("sitemap URLs affected: 120"), or null to leave the count out. */
export function sitemapUrlsText(s: SitemapUrlsAffected): string | null {
  switch (s.status) {
    case 'counted':
      return `sitemap URLs affected: ${s.affected}${s.capped ? ` (of the first ${s.checked} read)` : ''}`;
    case 'partial':
      return `sitemap URLs affected: ${s.affected} (some sitemaps unreachable)`;
    case 'unreachable':
      return 'sitemap URLs affected: unknown (sitemap unreachable)';
    default:
      return null;
  }
}
