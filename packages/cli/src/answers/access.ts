/**
 * `audit --as`'s answer, as `audit --as … --json` prints it and the MCP tool `audit` (with `as`) returns it: the
 * engine's access check (`checkAccess` in `robotskit/fetch`: what the edge serves each crawler against what the
 * robots.txt says, and every finding's words) over the CLI's network: robots.txt by the engine's retrieval over the
 * CLI's transport (or the service's guarded fetch under `serve`), the page by `audit`'s own GET (`transport/page.ts`:
 * 15 MB of HTML, as Google reads, no redirect followed, the SSRF guard's checks under `serve`). What the CLI adds: the
 * `--as` list read by the engine's crawler rule with a one-line error, its words for a failed retrieval, the exit
 * status.
 */

import type { CrawlerProfile } from 'robotskit';
import { type AccessReport, accessCrawlerOf, checkAccess, MAX_ACCESS_CRAWLERS, type PageGet } from 'robotskit/fetch';
import type { Network } from '../crawl/network.js';
import { CliError } from '../io.js';
import { crawlerOfUa, type UaCrawler } from '../options/ua.js';
import { describeFetch } from '../output/fetch.js';
import { fetchPage, PageFetchError } from '../transport/page.js';
import { retrievalOptions } from '../transport/retrieval.js';

/** Crawlers one `--as` may name: each costs three fetches of the site. */
export const MAX_AS_CRAWLERS = MAX_ACCESS_CRAWLERS;

/** What `audit --as --json` prints: the engine's report. */
export type AccessJson = AccessReport;

/** The names of `--as` (comma-separated), each resolved by the engine's rule. @throws CliError for none or too many. */
export function asCrawlers(text: string, catalogue?: readonly CrawlerProfile[]): UaCrawler[] {
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0) throw new CliError('--as needs at least one crawler, e.g. --as GPTBot,Googlebot');
  if (names.length > MAX_AS_CRAWLERS)
    throw new CliError(`--as names ${names.length} crawlers: at most ${MAX_AS_CRAWLERS} at once`);
  return names.map((name) => crawlerOfUa(name, catalogue));
}

/** `audit`'s page GET as the engine's access check asks for it: a failed fetch is its one line. */
function pageGet(network: Network, timeoutMs: number): PageGet {
  return async (url, userAgent) => {
    try {
      return await fetchPage(url, { timeoutMs, userAgent, guard: network.pageGuard });
    } catch (error) {
      if (!(error instanceof PageFetchError)) throw error;
      return { error: error.message };
    }
  };
}

/**
 * Fetches as each crawler and compares (the engine's `checkAccess`); the exit status is 1 when the edge disagrees with
 * the file for one.
 */
export async function accessAnswer(
  url: URL,
  crawlers: readonly UaCrawler[],
  how: { readonly network: Network; readonly timeoutMs: number; readonly version: string },
): Promise<{ doc: AccessJson; code: number }> {
  const { network, timeoutMs, version } = how;
  const { ftp: _ftp, userAgent: _own, ...options } = retrievalOptions(timeoutMs, version);
  const doc = await checkAccess(
    url,
    crawlers.map((c) => accessCrawlerOf(c.resolved)),
    {
      userAgent: network.userAgent,
      retrieval: { ...options, fetch: network.fetch },
      page: pageGet(network, timeoutMs),
      describe: (result) => describeFetch(result, timeoutMs),
    },
  );
  return { doc, code: doc.disagreements > 0 ? 1 : 0 };
}
