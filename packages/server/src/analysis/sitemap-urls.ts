/**
 * Page URLs from a site's sitemaps, through `robotskit-sitemaps` (the streaming walk: indexes, gzip, text, feeds,
 * the protocol's limits) over the SSRF-guarded fetch. Used by the impact check (which URLs change verdict) and by
 * host discovery (which hosts a domain's sitemaps list).
 */

import type { RobotsTxt } from 'robotskit';
import { readSitemaps, type SitemapScope } from 'robotskit-sitemaps';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import { engineFetchOf } from '../net/robots-fetch.js';

/** What a walk found. */
interface SitemapUrls {
  readonly urls: string[];
  /** The walk stopped at the cap (more URLs may exist). */
  readonly capped: boolean;
  /** Errors of the walk, in words (at most 20). */
  readonly problems: string[];
  /** Sitemap files that could not be read at all (no answer, or an HTTP error). */
  readonly unreachable: number;
}

/** Options of {@link sitemapPageUrls}. */
interface SitemapUrlOptions {
  readonly fetch: GuardedFetch;
  readonly maxUrls: number;
  /** Origins whose robots.txt listed the sitemaps (cross-submission). */
  readonly allowedOrigins: readonly string[];
  /** Keep only URLs for which this returns true (not counted against the cap otherwise). */
  readonly keep?: (url: string) => boolean;
  /**
   * Location rules for entries.
   * @default 'protocol'
   */
  readonly scope?: SitemapScope;
  /** Stops the walk (the client went away, the process is stopping): what was read so far is returned. */
  readonly signal?: AbortSignal;
  /**
   * The whole walk's time, every file included; past it the walk stops and says so in `problems`.
   * @default 60000
   */
  readonly budgetMs?: number;
}

/** The default time budget of one walk. */
const WALK_BUDGET_MS = 60_000;

/** Reads the page URLs of `sitemaps`, at most `maxUrls` kept. */
export async function sitemapPageUrls(sitemaps: readonly string[], options: SitemapUrlOptions): Promise<SitemapUrls> {
  const urls: string[] = [];
  const problems: string[] = [];
  let capped = false;
  let unreachable = 0;
  if (sitemaps.length === 0) return { urls, capped, problems, unreachable };
  const controller = new AbortController();
  const budgetMs = options.budgetMs ?? WALK_BUDGET_MS;
  const budget = AbortSignal.timeout(budgetMs);
  const walk = readSitemaps(sitemaps, {
    fetch: engineFetchOf(options.fetch),
    allowedOrigins: options.allowedOrigins,
    scope: options.scope ?? 'protocol',
    maxSitemaps: 200,
    timeouts: { total: Math.min(30_000, budgetMs) },
    // A total budget and the caller's signal: the walk never outlives its request or its process.
    signal: AbortSignal.any([controller.signal, budget, ...(options.signal ? [options.signal] : [])]),
  });
  for await (const event of walk) {
    if (event.type === 'url') {
      if (options.keep && !options.keep(event.entry.loc)) continue;
      if (urls.length >= options.maxUrls) {
        capped = true;
        controller.abort();
        break;
      }
      urls.push(event.entry.loc);
    } else if (event.type === 'diagnostic' && event.diagnostic.severity === 'error' && problems.length < 20) {
      problems.push(`${event.diagnostic.sitemap}: ${event.diagnostic.message}`);
    } else if (event.type === 'sitemap' && (event.report.counts['fetch-failed'] || event.report.counts['http-error'])) {
      unreachable++;
    } else if (event.type === 'end' && event.summary.stoppedBy === 'max-sitemaps') {
      capped = true;
    } else if (event.type === 'end' && event.summary.stoppedBy === 'aborted' && !controller.signal.aborted) {
      capped = true;
      if (budget.aborted && !options.signal?.aborted) {
        problems.push(`the walk stopped at its time budget of ${budgetMs / 1000} s; the URLs read until then count`);
      }
    }
  }
  return { urls, capped, problems, unreachable };
}

/** What {@link originSitemapUrls} read: the walk, the sitemaps it started from, and whether the site has none. */
export interface OriginSitemapUrls extends SitemapUrls {
  /** The sitemaps the files list, else the origin's /sitemap.xml. */
  readonly sitemaps: string[];
  /** Nothing listed, and no URL at /sitemap.xml either (then `problems` is empty: there is nothing to read). */
  readonly noSitemap: boolean;
}

/**
 * The page URLs of one origin's sitemaps, for comparing two versions of its robots.txt: the sitemaps either version
 * lists (`null`: a version without rules), else `<origin>/sitemap.xml`; only URLs of the origin itself are kept, as
 * robots.txt rules apply to their own origin only. Used by the impact check and the alert's sitemap count.
 */
export async function originSitemapUrls(
  origin: string,
  files: readonly (RobotsTxt | null)[],
  options: Omit<SitemapUrlOptions, 'allowedOrigins' | 'keep'>,
): Promise<OriginSitemapUrls> {
  const listed = new Set<string>();
  for (const file of files) for (const s of file?.sitemaps ?? []) listed.add(s);
  const sitemaps = listed.size > 0 ? [...listed] : [`${origin}/sitemap.xml`];
  const walk = await sitemapPageUrls(sitemaps, {
    ...options,
    allowedOrigins: [origin],
    keep: (url) => url.startsWith(`${origin}/`),
  });
  const noSitemap = listed.size === 0 && walk.urls.length === 0;
  return { ...walk, ...(noSitemap ? { problems: [] } : {}), sitemaps, noSitemap };
}
