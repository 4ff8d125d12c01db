/**
 * A site's sitemaps, starting from its robots.txt: the list (`sitemapsOf`), the walk (`siteSitemaps`) and its page
 * URLs alone (`sitePageUrls`). URLs of the site's own origin are in scope of every sitemap its robots.txt lists
 * (sitemaps.org cross-submission through robots.txt).
 */

import { originOf } from 'robotskit';
import {
  fetchRobotsTxt,
  type RetrievalOptions,
  type RetrievalResult,
  type RetrievalTimeouts,
  robotsTxtOf,
} from 'robotskit/fetch';
import type { SitemapEntry, SitemapEvent, SitemapOptions } from './types.js';
import { readSitemaps } from './walk.js';

/** A site's robots.txt and the sitemaps it lists. */
export interface SiteSitemaps {
  /** The site's origin, e.g. `https://example.com`. */
  readonly origin: string;
  /** `${origin}/robots.txt`. */
  readonly robotsUrl: string;
  /** The absolute http(s) sitemap URLs the robots.txt lists, in file order, without repeats; empty without rules. */
  readonly sitemaps: readonly string[];
  /** The robots.txt retrieval, as {@link fetchRobotsTxt} returned it (status, error, redirects…). */
  readonly retrieval: RetrievalResult;
}

/** What {@link siteSitemaps} yields: a `robots` event first, then the walk's events. */
export type SiteSitemapEvent = SitemapEvent | { readonly type: 'robots'; readonly site: SiteSitemaps };

function retrievalOptions(options: SitemapOptions): RetrievalOptions {
  return {
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeouts === undefined ? {} : { timeouts: retrievalTimeouts(options.timeouts) }),
  };
}

/** The timeouts the caller gave, for the robots.txt too (the engine's defaults for the others). */
function retrievalTimeouts(timeouts: NonNullable<SitemapOptions['timeouts']>): RetrievalTimeouts {
  return {
    ...(timeouts.headers === undefined ? {} : { headers: timeouts.headers }),
    ...(timeouts.idle === undefined ? {} : { idle: timeouts.idle }),
    ...(timeouts.total === undefined ? {} : { total: timeouts.total }),
  };
}

/**
 * Fetches a site's robots.txt (with the engine's {@link fetchRobotsTxt}: redirects, size cap, timeouts) and returns
 * the sitemaps it lists. Never rejects for what the network or the server does: look at `retrieval.outcome` and
 * `retrieval.error`. Throws `RobotsUrlError` for a URL without a robots.txt (not http/https/ftp, no host).
 *
 * @param site Any URL of the site, its origin, or its robots.txt URL.
 * @example
 * const { sitemaps, retrieval } = await sitemapsOf('https://example.com');
 */
export async function sitemapsOf(site: string | URL, options: SitemapOptions = {}): Promise<SiteSitemaps> {
  const retrieval = await fetchRobotsTxt(site, retrievalOptions(options));
  const robots = robotsTxtOf(retrieval);
  return {
    origin: retrieval.origin,
    robotsUrl: retrieval.robotsUrl,
    sitemaps: robots === null ? [] : robots.sitemaps,
    retrieval,
  };
}

/**
 * Walks every sitemap a site's robots.txt lists (see {@link readSitemaps}), with the site's origin allowed in every
 * sitemap's scope. Yields a `robots` event first, with the robots.txt retrieval and the sitemaps found.
 *
 * @example
 * for await (const event of siteSitemaps('https://example.com', { maxUrls: 100_000 })) {
 *   if (event.type === 'url') hosts.add(new URL(event.entry.loc).host);
 * }
 */
export async function* siteSitemaps(
  site: string | URL,
  options: SitemapOptions = {},
): AsyncGenerator<SiteSitemapEvent, void, undefined> {
  const origin = originOf(site);
  const found = await sitemapsOf(origin, options);
  yield { type: 'robots', site: found };
  const allowedOrigins = [...(options.allowedOrigins ?? [])];
  if (found.origin.startsWith('http')) allowedOrigins.push(found.origin);
  yield* readSitemaps(found.sitemaps, { ...options, allowedOrigins });
}

/**
 * The page URLs of every sitemap a site's robots.txt lists, at most `maxUrls` of them (default 50,000), without the
 * reports: the simplest way to sample a site's pages. Holds O(1) entries however many there are.
 *
 * @example
 * for await (const entry of sitePageUrls('https://example.com', { maxUrls: 10_000 })) check(entry.loc);
 */
export async function* sitePageUrls(
  site: string | URL,
  options: SitemapOptions = {},
): AsyncGenerator<SitemapEntry, void, undefined> {
  for await (const event of siteSitemaps(site, { maxUrls: 50_000, ...options })) {
    if (event.type === 'url') yield event.entry;
  }
}
