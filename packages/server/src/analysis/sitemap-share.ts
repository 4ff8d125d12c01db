/**
 * The share of a site's sitemap URLs a version of its robots.txt blocks, per watched crawler ("blocks 24% of your
 * sitemap URLs for Googlebot"): measured when the version is recorded, before the recording transaction (the alert
 * hook's `prepare`), from one bounded walk of the sitemaps the version lists (else `<origin>/sitemap.xml`) that the
 * `file-changed` alert's count reuses. Every verdict is the engine's `isAllowed`; many questions go to the analysis
 * threads. Never throws for what a server does: a site without a sitemap, or whose sitemaps cannot be read, gets a
 * share that says so, and the headline leaves it out.
 */

import { type RobotsTxt, resolveCrawler } from 'robotskit';
import type { SitemapShare } from '../storage/sitemap-shares.js';
import type { OriginSitemapUrls } from './sitemap-urls.js';
import type { FetchingAnalyses } from './threads.js';
import { WATCHED_CRAWLER_NAMES } from './watched-crawlers.js';

/** Questions (URL × crawler) answered in place; more go to an analysis thread when the service has them. */
const INLINE_QUESTIONS = 20_000;

/** Per crawler name, how many of `urls` `robots` disallows (the engine's `isAllowed`), yielding between slices. */
export async function blockedCounts(
  robots: RobotsTxt,
  urls: readonly string[],
  names: readonly string[],
  signal?: AbortSignal,
): Promise<number[]> {
  const counts: number[] = [];
  let sinceYield = 0;
  for (const name of names) {
    const input = resolveCrawler(name).input;
    let blocked = 0;
    for (const url of urls) {
      if (!robots.isAllowed(url, input)) blocked++;
      if (++sinceYield >= INLINE_QUESTIONS) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
      }
    }
    counts.push(blocked);
  }
  return counts;
}

/** What {@link sitemapShareOf} needs besides the walk. */
interface ShareOptions {
  /** When the share is measured (epoch ms). */
  readonly now: number;
  /** Where many questions are answered; without them, in place. */
  readonly analysisThreads?: Pick<FetchingAnalyses, 'blocked'>;
  readonly signal?: AbortSignal;
}

/**
 * The share of the walk's URLs that `robots` (parsed from `body`) blocks for each watched crawler; the walk is
 * `originSitemapUrls(origin, [robots])`.
 */
export async function sitemapShareOf(
  walk: OriginSitemapUrls,
  body: Uint8Array,
  robots: RobotsTxt,
  options: ShareOptions,
): Promise<SitemapShare> {
  const base = { measuredAt: options.now, checked: walk.urls.length, capped: walk.capped, sitemaps: walk.sitemaps };
  if (walk.noSitemap) {
    return {
      ...base,
      status: 'no-sitemap',
      crawlers: [],
      reason: 'the file lists no sitemap and /sitemap.xml has none',
    };
  }
  if (walk.urls.length === 0) {
    const unreachable = walk.unreachable > 0;
    return {
      ...base,
      status: unreachable ? 'unreachable' : 'no-urls',
      crawlers: [],
      reason: unreachable
        ? `the sitemaps could not be read${walk.problems[0] === undefined ? '' : ` (${walk.problems[0]})`}`
        : "the sitemaps list no URL of the file's own site",
    };
  }
  const names = WATCHED_CRAWLER_NAMES;
  const counts =
    options.analysisThreads && walk.urls.length * names.length > INLINE_QUESTIONS
      ? await options.analysisThreads.blocked(body, walk.urls, names)
      : await blockedCounts(robots, walk.urls, names, options.signal);
  const partial = walk.unreachable > 0;
  return {
    ...base,
    status: partial ? 'partial' : 'measured',
    crawlers: names.map((crawler, i) => ({ crawler, blocked: counts[i] ?? 0 })),
    reason: partial
      ? `${walk.unreachable} of the sitemaps could not be read; the URLs of the others were decided`
      : walk.capped
        ? `the walk stopped after ${walk.urls.length} URLs (its cap, its time budget or the sitemap reader's limits): a sample`
        : null,
  };
}

/** A share whose measuring failed (a bug, or the database): said, and left out of the headline. */
export function failedShare(error: unknown, now: number): SitemapShare {
  return {
    status: 'failed',
    measuredAt: now,
    checked: 0,
    capped: false,
    sitemaps: [],
    crawlers: [],
    reason: `not measured: ${error instanceof Error ? error.message : String(error)}`,
  };
}
