/**
 * The access check (`checkAccess`): the access each crawler gets from the edge (CDN, WAF, paywall) compared with what
 * the robots.txt says, as `robotskit audit --as … --json` prints it, the MCP tool `audit` (with `as`) returns it and
 * the report service's `POST /api/properties/:id/access` sends it. robots.txt and the page are fetched as the caller
 * (the baseline), then with each crawler's real `User-Agent` ({@link accessCrawlerOf}), each fetch within the usual
 * limits: the engine's retrieval for robots.txt (its size cap, redirects and timeouts), and the caller's page GET
 * ({@link PageGet}: the CLI's own transport, or {@link pageGetOver} over the service's guarded fetch). Found, per
 * crawler:
 * - `edge-refuses`: the page answers 401, 402, 403 or 429 to a crawler the file allows;
 * - `challenge`: the page is a challenge (`cf-mitigated: challenge`, or a 2xx HTML page that is one) to such a crawler;
 * - `robots-differs`: the crawler is served another robots.txt than the baseline (another status or other bytes):
 *   cloaking, or an edge that refuses the file itself to that crawler;
 * - `stale-robots`: the robots.txt the crawler got is a cache's copy older than the origin's (`cache-copies.ts`: each
 *   robots.txt is fetched again with `Cache-Control: no-cache` once every crawler's fetches are done, so that request
 *   refreshes no cache before a crawler's own fetch). A copy shown stale is compared with the baseline's by the
 *   origin's copy, so a CDN's lag is not called cloaking.
 * The network is injected (the robots.txt `fetch` and the page GET), so the answer is the same on every surface.
 */

import { describeFetchOutcome } from '../retrieval/outcome-words.js';
import { fetchRobotsTxt, type RetrievalOptions } from '../retrieval/retrieve.js';
import { robotsTxtOf } from '../retrieval/serialize.js';
import type { AnyFetchLike, RetrievalResult } from '../shared/types.js';
import { resolveFetch } from '../transport/redirects.js';
import {
  type CacheEvidence,
  cacheEvidence,
  compareCopies,
  FRESH_REQUEST_HEADERS,
  type Freshness,
  type RobotsCopy,
  recordingHeaders,
  sameAnswer,
} from './cache-copies.js';
import { type AccessCrawler, type AccessFinding, edgeFindings, looksLikeChallenge, type ServedPage } from './edge.js';
import type { PageGet } from './page.js';

/** Crawlers one check may name: each costs three fetches of the site. */
export const MAX_ACCESS_CRAWLERS = 20;

/** A robots.txt as one User-Agent was served it. */
export interface ServedRobots {
  readonly status: number | null;
  readonly outcome: RetrievalResult['outcome'];
  readonly bytes: number;
  /** Why no file was found (status, network error), in the engine's words; null when one was. */
  readonly problem: string | null;
  /** What the response's headers say about the cache that served it. */
  readonly cache: CacheEvidence;
}

/** The served robots.txt against the one fetched with `Cache-Control: no-cache` (the same URL and User-Agent). */
export interface FreshnessReport extends Freshness {
  /** The copy the no-cache request got. */
  readonly fresh: ServedRobots;
}

/** What one crawler found. */
export interface CrawlerAccessReport {
  /** The catalogue name, or the token(s) as resolved. */
  readonly crawler: string;
  readonly userAgent: string;
  /** Whether the operator documents that `User-Agent` string (false: built from the crawler's token). */
  readonly documentedUserAgent: boolean;
  readonly robots: ServedRobots & { readonly sameAsBaseline: boolean };
  readonly freshness: FreshnessReport;
  /** Whether the robots.txt served to this crawler allows it the URL. */
  readonly allowed: boolean;
  /** The deciding line of that file (0: none), as written. */
  readonly line: number;
  readonly ruleText: string | null;
  readonly page: ServedPage;
  /** Where the edge disagrees with the file, each in one sentence. */
  readonly findings: readonly AccessFinding[];
}

/** The access check's answer. */
export interface AccessReport {
  readonly url: string;
  readonly robotsUrl: string;
  /** The caller's own fetches, which the crawlers' are compared with. */
  readonly baseline: {
    readonly userAgent: string;
    readonly robots: ServedRobots;
    readonly freshness: FreshnessReport;
    readonly page: ServedPage;
  };
  readonly crawlers: readonly CrawlerAccessReport[];
  /** Findings over all crawlers. */
  readonly disagreements: number;
}

/** Options of {@link checkAccess}. */
export interface AccessOptions {
  /** The caller's own `User-Agent` (the baseline). */
  readonly userAgent: string;
  /** The robots.txt retrieval's options (`fetch`, timeouts, headers…); its `userAgent` is set per fetch. */
  readonly retrieval: Omit<RetrievalOptions, 'userAgent' | 'fetch'> & { readonly fetch?: AnyFetchLike };
  /** The page GET. */
  readonly page: PageGet;
  /**
   * Why a retrieval found no usable file, in one line; null for a 2xx with a body.
   * @default the engine's words (`describeFetchOutcome`): the summary, with the effect unless nothing answered
   */
  readonly describe?: (result: RetrievalResult) => string | null;
}

/** The engine's words for a retrieval without a usable file (the default of `describe`). */
function defaultDescribe(timeoutMs: number | undefined) {
  return (result: RetrievalResult): string | null => {
    if (result.error === null && result.outcome === 'rules') return null;
    const words = describeFetchOutcome(result, timeoutMs === undefined ? {} : { timeoutMs });
    const unanswered = result.outcome === 'disallow-all' && result.error !== null && result.error.kind !== 'aborted';
    return unanswered ? words.summary : `${words.summary} (${words.effect})`;
  };
}

/** A robots.txt as served and as fetched with no-cache, compared. */
interface Copies {
  readonly served: RobotsCopy;
  readonly fresh: RobotsCopy;
  readonly freshness: Freshness;
}

/** The copy that stands for what the edge answers this User-Agent now: the origin's when the served one is stale. */
const currentOf = (c: Copies) => (c.freshness.state === 'stale' ? c.fresh : c.served).result;

/** The verdict of a robots.txt answer for the crawler on the URL, with the deciding line as written. */
function verdictOf(result: RetrievalResult, url: URL, crawler: AccessCrawler) {
  const file = robotsTxtOf(result);
  const verdict = file === null ? null : file.explain(url.href, crawler.input);
  const allowed = verdict === null ? result.outcome === 'allow-all' : verdict.allowed;
  const line = verdict?.line ?? 0;
  const ruleText = file !== null && line > 0 ? (file.records[line - 1]?.text.trim() ?? '') : null;
  return { allowed, line, ruleText };
}

type Verdict = ReturnType<typeof verdictOf>;

/** `stale-robots`'s sentence: how much older, on what evidence, and what the origin's copy decides if that differs. */
function staleMessage(name: string, c: Copies, served: Verdict, now: Verdict): string {
  const { olderBySeconds, basis } = c.freshness;
  const evidence =
    basis === 'age'
      ? c.served.cache.marks.join(', ')
      : `Last-Modified ${c.served.cache.lastModified} against ${c.fresh.cache.lastModified}`;
  const word = (allowed: boolean) => (allowed ? 'allows' : 'disallows');
  const verdicts =
    served.allowed === now.allowed
      ? ''
      : `; the cached copy ${word(served.allowed)} the URL to ${name}, the origin's ${word(now.allowed)} it${now.line > 0 ? ` (line ${now.line}: ${now.ruleText})` : ''}`;
  return `the robots.txt ${name} got is a cached copy ${olderBySeconds} s older than the one the origin serves (fetched with Cache-Control: no-cache): ${evidence}${verdicts}`;
}

/** The page as one User-Agent was served it. */
async function servedPage(page: PageGet, url: URL, userAgent: string): Promise<ServedPage> {
  const answer = await page(url, userAgent);
  if ('error' in answer) return { status: null, contentType: null, challenge: false, error: answer.error };
  const challenge = answer.challenge || (answer.html !== null && looksLikeChallenge(answer.html));
  return { status: answer.status, contentType: answer.contentType, challenge, error: null };
}

/**
 * Fetches as the caller and as each crawler, and compares. Every robots.txt and page as the caller and as each
 * crawler first, then each robots.txt again with no-cache in the same order (a no-cache request may refresh a shared
 * cache, which would hide a stale copy from a later crawler's fetch). Never rejects for what the network or a server
 * does; throws for bad options, more than {@link MAX_ACCESS_CRAWLERS} crawlers, and a URL with no robots.txt
 * (`RobotsUrlError`), as the retrieval does.
 */
export async function checkAccess(
  url: string | URL,
  crawlers: readonly AccessCrawler[],
  options: AccessOptions,
): Promise<AccessReport> {
  if (crawlers.length > MAX_ACCESS_CRAWLERS)
    throw new RangeError(`${crawlers.length} crawlers: at most ${MAX_ACCESS_CRAWLERS} at once`);
  const target = typeof url === 'string' ? new URL(url) : url;
  const { retrieval } = options;
  const describe = options.describe ?? defaultDescribe(retrieval.timeouts?.total);
  const served = (copy: RobotsCopy): ServedRobots => ({
    status: copy.result.status,
    outcome: copy.result.outcome,
    bytes: copy.result.body?.length ?? 0,
    problem: describe(copy.result),
    cache: copy.cache,
  });
  const freshnessOf = (c: Copies): FreshnessReport => ({ ...c.freshness, fresh: served(c.fresh) });
  const robotsAs = async (userAgent: string, fresh: boolean): Promise<RobotsCopy> => {
    const recorder = recordingHeaders(resolveFetch<AnyFetchLike>(retrieval.fetch));
    const headers = { ...retrieval.headers, ...(fresh ? FRESH_REQUEST_HEADERS : {}) };
    const result = await fetchRobotsTxt(target.href, { ...retrieval, headers, userAgent, fetch: recorder.fetch });
    return { result, cache: result.status === null ? cacheEvidence(null) : cacheEvidence(recorder.last()) };
  };
  const agents = [options.userAgent, ...crawlers.map((c) => c.userAgent)];
  const first: { robots: RobotsCopy; page: ServedPage }[] = [];
  for (const userAgent of agents) {
    const [robots, page] = await Promise.all([robotsAs(userAgent, false), servedPage(options.page, target, userAgent)]);
    first.push({ robots, page });
  }
  const copies: Copies[] = [];
  for (const [i, userAgent] of agents.entries()) {
    const fresh = await robotsAs(userAgent, true);
    const robots = first[i]!.robots;
    copies.push({ served: robots, fresh, freshness: compareCopies(robots, fresh) });
  }
  const base = copies[0]!;
  const results = crawlers.map((crawler, i): CrawlerAccessReport => {
    const { page } = first[i + 1]!;
    const c = copies[i + 1]!;
    const verdict = verdictOf(c.served.result, target, crawler);
    const findings = edgeFindings(crawler.name, currentOf(c), currentOf(base), verdict.allowed, page);
    if (c.freshness.state === 'stale') {
      const message = staleMessage(crawler.name, c, verdict, verdictOf(c.fresh.result, target, crawler));
      findings.unshift({ kind: 'stale-robots', message });
    }
    return {
      crawler: crawler.name,
      userAgent: crawler.userAgent,
      documentedUserAgent: crawler.documented,
      robots: { ...served(c.served), sameAsBaseline: sameAnswer(c.served.result, base.served.result) },
      freshness: freshnessOf(c),
      ...verdict,
      page,
      findings,
    };
  });
  return {
    url: target.href,
    robotsUrl: base.served.result.robotsUrl,
    baseline: {
      userAgent: options.userAgent,
      robots: served(base.served),
      freshness: freshnessOf(base),
      page: first[0]!.page,
    },
    crawlers: results,
    disagreements: results.reduce((n, r) => n + r.findings.length, 0),
  };
}
