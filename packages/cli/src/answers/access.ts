/**
 * `audit --as`'s answer, as `audit --as … --json` prints it and the MCP tool `audit` (with `as`) returns it: the access
 * each crawler gets from the edge (CDN, WAF, paywall) compared with what the robots.txt says. robots.txt and the page
 * are fetched as robotskit (the baseline), then with each crawler's real `User-Agent` (the engine's
 * `crawlerUserAgent`: its operator's documented string, else one built from its token), each fetch within the usual
 * limits (the engine's retrieval for robots.txt: its size cap, redirects and timeouts; `audit`'s page GET: 15 MB of HTML, as Google reads, no
 * redirect followed). Found, per crawler:
 * - `edge-refuses`: the page answers 401, 402, 403 or 429 to a crawler the file allows;
 * - `challenge`: the page is a challenge (`cf-mitigated: challenge`, or a 2xx HTML page that is one) to such a crawler;
 * - `robots-differs`: the crawler is served another robots.txt than robotskit (another status or other bytes): cloaking,
 *   or an edge that refuses the file itself to that crawler;
 * - `stale-robots`: the robots.txt the crawler got is a cache's copy older than the origin's (`freshness.ts`: each
 *   robots.txt is fetched again with `Cache-Control: no-cache` once every crawler's fetches are done, so that request
 *   refreshes no cache before a crawler's own fetch). A copy shown stale is compared with robotskit's by the origin's
 *   copy, so a CDN's lag is not called cloaking.
 */

import { type CrawlerProfile, crawlerUserAgent } from 'robotskit';
import { fetchRobotsTxt, type RetrievalResult, robotsTxtOf } from 'robotskit/fetch';
import type { Network } from '../crawl/network.js';
import { CliError } from '../io.js';
import { crawlerOfUa, type UaCrawler } from '../options/ua.js';
import { lineText } from '../output/explanation.js';
import { describeFetch } from '../output/fetch.js';
import { type FetchedPage, fetchPage, PageFetchError } from '../transport/page.js';
import { retrievalOptions } from '../transport/retrieval.js';
import {
  type CacheEvidence,
  cacheEvidence,
  compareCopies,
  FRESH_REQUEST_HEADERS,
  type Freshness,
  type RobotsCopy,
  recordingHeaders,
  sameAnswer,
} from './freshness.js';

/** Crawlers one `--as` may name: each costs two fetches of the site. */
export const MAX_AS_CRAWLERS = 20;

/** Statuses an edge refuses a crawler with. */
const REFUSALS = new Set([401, 402, 403, 429]);

/** A robots.txt as one User-Agent was served it. */
interface ServedRobots {
  readonly status: number | null;
  readonly outcome: RetrievalResult['outcome'];
  readonly bytes: number;
  /** Why no file was found (status, network error), in the engine's words; null when one was. */
  readonly problem: string | null;
  /** What the response's headers say about the cache that served it. */
  readonly cache: CacheEvidence;
}

/** The served robots.txt against the one fetched with `Cache-Control: no-cache` (the same URL and User-Agent). */
interface FreshnessJson extends Freshness {
  /** The copy the no-cache request got. */
  readonly fresh: ServedRobots;
}

/** The page as one User-Agent was served it; null fields when it could not be fetched (`error` says why). */
interface ServedPage {
  readonly status: number | null;
  readonly contentType: string | null;
  readonly challenge: boolean;
  readonly error: string | null;
}

/** What one crawler found. */
interface CrawlerAccessJson {
  /** The catalogue name, or the token(s) as resolved. */
  readonly crawler: string;
  readonly userAgent: string;
  /** Whether the operator documents that `User-Agent` string (false: built from the crawler's token). */
  readonly documentedUserAgent: boolean;
  readonly robots: ServedRobots & { readonly sameAsBaseline: boolean };
  readonly freshness: FreshnessJson;
  /** Whether the robots.txt served to this crawler allows it the URL. */
  readonly allowed: boolean;
  /** The deciding line of that file (0: none), as written. */
  readonly line: number;
  readonly ruleText: string | null;
  readonly page: ServedPage;
  /** Where the edge disagrees with the file, each in one sentence. */
  readonly findings: readonly {
    readonly kind: FindingKind;
    readonly message: string;
  }[];
}

type FindingKind = 'edge-refuses' | 'challenge' | 'robots-differs' | 'stale-robots';

/** What `audit --as --json` prints. */
export interface AccessJson {
  readonly url: string;
  readonly robotsUrl: string;
  /** robotskit's own fetches, which the crawlers' are compared with. */
  readonly baseline: {
    readonly userAgent: string;
    readonly robots: ServedRobots;
    readonly freshness: FreshnessJson;
    readonly page: ServedPage;
  };
  readonly crawlers: readonly CrawlerAccessJson[];
  /** Findings over all crawlers. */
  readonly disagreements: number;
}

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

/** The `User-Agent` a crawler sends: its profile's, else one built from its name. */
function userAgentOf(crawler: UaCrawler): { userAgent: string; documented: boolean } {
  if (crawler.profile !== null) return crawlerUserAgent(crawler.profile);
  return { userAgent: `Mozilla/5.0 (compatible; ${crawler.label.split(',')[0]}/1.0)`, documented: false };
}

/** Whether a 2xx HTML page is a challenge rather than the page (the usual interstitials' own words). */
function looksLikeChallenge(html: string): boolean {
  const head = html.slice(0, 64 * 1024).toLowerCase();
  return (
    /<title>\s*(just a moment|attention required|access denied|verify you are human|are you a robot)/.test(head) ||
    head.includes('/cdn-cgi/challenge-platform/') ||
    head.includes('captcha-delivery.com') ||
    /class="g-recaptcha"|class="h-captcha"|cf-turnstile/.test(head)
  );
}

async function servedPage(url: URL, userAgent: string, network: Network, timeoutMs: number): Promise<ServedPage> {
  let page: FetchedPage;
  try {
    page = await fetchPage(url, { timeoutMs, userAgent, guard: network.pageGuard });
  } catch (error) {
    if (!(error instanceof PageFetchError)) throw error;
    return { status: null, contentType: null, challenge: false, error: error.message };
  }
  const challenge = page.challenge || (page.html !== null && looksLikeChallenge(page.html));
  return { status: page.status, contentType: page.contentType, challenge, error: null };
}

function servedRobots(copy: RobotsCopy, timeoutMs: number): ServedRobots {
  const { result, cache } = copy;
  return {
    status: result.status,
    outcome: result.outcome,
    bytes: result.body?.length ?? 0,
    problem: describeFetch(result, timeoutMs),
    cache,
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

function freshnessJson(c: Copies, timeoutMs: number): FreshnessJson {
  return { ...c.freshness, fresh: servedRobots(c.fresh, timeoutMs) };
}

/** The verdict of a robots.txt answer for the crawler on the URL, with the deciding line as written. */
function verdictOf(result: RetrievalResult, url: URL, crawler: UaCrawler) {
  const file = robotsTxtOf(result);
  const verdict = file === null ? null : file.explain(url.href, crawler.input);
  const allowed = verdict === null ? result.outcome === 'allow-all' : verdict.allowed;
  const line = verdict?.line ?? 0;
  return { allowed, line, ruleText: file !== null && line > 0 ? lineText(file, line) : null };
}

/** `stale-robots`'s sentence: how much older, on what evidence, and what the origin's copy decides if that differs. */
function staleMessage(
  name: string,
  c: Copies,
  served: ReturnType<typeof verdictOf>,
  now: ReturnType<typeof verdictOf>,
) {
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

/** What the edge did to one crawler, against the file it was served. */
function findingsOf(
  name: string,
  served: RetrievalResult,
  baseline: RetrievalResult,
  allowed: boolean,
  page: ServedPage,
): { kind: FindingKind; message: string }[] {
  const findings: { kind: FindingKind; message: string }[] = [];
  if (!sameAnswer(served, baseline)) {
    const how =
      served.status !== baseline.status
        ? `HTTP ${served.status ?? 'none'} instead of HTTP ${baseline.status ?? 'none'}`
        : `${served.body?.length ?? 0} bytes that differ from the ${baseline.body?.length ?? 0} served to robotskit`;
    findings.push({ kind: 'robots-differs', message: `robots.txt is served differently to ${name}: ${how}` });
  }
  if (allowed && page.status !== null && REFUSALS.has(page.status)) {
    findings.push({
      kind: 'edge-refuses',
      message: `the page answers HTTP ${page.status} to ${name}, which robots.txt allows to fetch it`,
    });
  }
  if (allowed && page.challenge) {
    findings.push({
      kind: 'challenge',
      message: `the page is a challenge to ${name}${page.status === null ? '' : ` (HTTP ${page.status})`}, which robots.txt allows to fetch it`,
    });
  }
  return findings;
}

/**
 * Fetches as each crawler and compares; the exit status is 1 when the edge disagrees with the file for one. Every
 * robots.txt and page as robotskit and as each crawler first, then each robots.txt again with no-cache in the same
 * order (a no-cache request may refresh a shared cache, which would hide a stale copy from a later crawler's fetch).
 */
export async function accessAnswer(
  url: URL,
  crawlers: readonly UaCrawler[],
  how: { readonly network: Network; readonly timeoutMs: number; readonly version: string },
): Promise<{ doc: AccessJson; code: number }> {
  const { network, timeoutMs, version } = how;
  const { ftp: _ftp, userAgent: _own, ...options } = retrievalOptions(timeoutMs, version);
  const robotsAs = async (userAgent: string, fresh: boolean): Promise<RobotsCopy> => {
    const recorder = recordingHeaders(network.fetch);
    const headers = { ...options.headers, ...(fresh ? FRESH_REQUEST_HEADERS : {}) };
    const result = await fetchRobotsTxt(url.href, { ...options, headers, userAgent, fetch: recorder.fetch });
    return { result, cache: result.status === null ? cacheEvidence(null) : cacheEvidence(recorder.last()) };
  };
  const agents = [
    { userAgent: network.userAgent, documented: true },
    ...crawlers.map((crawler) => userAgentOf(crawler)),
  ];
  const served: { robots: RobotsCopy; page: ServedPage }[] = [];
  for (const { userAgent } of agents) {
    const [robots, page] = await Promise.all([
      robotsAs(userAgent, false),
      servedPage(url, userAgent, network, timeoutMs),
    ]);
    served.push({ robots, page });
  }
  const copies: Copies[] = [];
  for (const [i, { userAgent }] of agents.entries()) {
    const fresh = await robotsAs(userAgent, true);
    const robots = served[i]!.robots;
    copies.push({ served: robots, fresh, freshness: compareCopies(robots, fresh) });
  }
  const base = copies[0]!;
  const results = crawlers.map((crawler, i): CrawlerAccessJson => {
    const { userAgent, documented } = agents[i + 1]!;
    const { page } = served[i + 1]!;
    const c = copies[i + 1]!;
    const name = crawler.profile?.name ?? crawler.label;
    const verdict = verdictOf(c.served.result, url, crawler);
    const findings = findingsOf(name, currentOf(c), currentOf(base), verdict.allowed, page);
    if (c.freshness.state === 'stale') {
      const message = staleMessage(name, c, verdict, verdictOf(c.fresh.result, url, crawler));
      findings.unshift({ kind: 'stale-robots', message });
    }
    return {
      crawler: name,
      userAgent,
      documentedUserAgent: documented,
      robots: {
        ...servedRobots(c.served, timeoutMs),
        sameAsBaseline: sameAnswer(c.served.result, base.served.result),
      },
      freshness: freshnessJson(c, timeoutMs),
      ...verdict,
      page,
      findings,
    };
  });
  const disagreements = results.reduce((n, r) => n + r.findings.length, 0);
  const doc: AccessJson = {
    url: url.href,
    robotsUrl: base.served.result.robotsUrl,
    baseline: {
      userAgent: network.userAgent,
      robots: servedRobots(base.served, timeoutMs),
      freshness: freshnessJson(base, timeoutMs),
      page: served[0]!.page,
    },
    crawlers: results,
    disagreements,
  };
  return { doc, code: disagreements > 0 ? 1 : 0 };
}
