/**
 * `robotskit audit <url> [--ua <crawler>] [--json] [--timeout <s>]`: robots.txt, the page's `X-Robots-Tag` headers
 * and its robots meta tags together: can the crawler fetch the page, may it index it and follow its links, and why.
 * Exit 0 when the page can be crawled and indexed, 1 when it cannot, 2 on usage errors or when the robots.txt or the
 * page could not be fetched at all.
 *
 * The point of putting them together: a `noindex` is only seen by a crawler that may fetch the page. A page blocked
 * by robots.txt cannot say `noindex`; its URL can still be indexed from links, without its content.
 */

import type { CrawlerProfile } from 'robotskit';
import {
  directivesFor,
  extractRobotsMeta,
  mergeDirectives,
  type PageDirectives,
  pageDirectives,
  parseRobotsMeta,
  parseXRobotsTag,
  type RobotsDirectives,
} from 'robotskit/meta';
import { crawlClient } from '../crawl/client.js';
import { type CheckJson, checkUrl, sayUnreachable } from '../crawl/verdict.js';
import { CliError, type Io } from '../io.js';
import { parseTimeout } from '../options/numbers.js';
import { crawlerOfUa, sayRewrites, type UaCrawler } from '../options/ua.js';
import { checkUrlArgument } from '../options/url.js';
import { type Paint, painter, useColor, visible } from '../output/paint.js';
import { type FetchedPage, fetchPage, PageFetchError } from '../transport/page.js';
import { cliUserAgent } from '../transport/retrieval.js';

/** Options of `audit`, as commander parsed them. */
export interface AuditOptions {
  readonly ua?: string;
  readonly json?: boolean;
  readonly timeout: string;
}

/** Where a directive came from. */
interface DirectiveSource {
  /** `meta` tag or `header` line. */
  readonly kind: 'meta' | 'header';
  /** As written: `<meta name="googlebot" content="noindex">` or `X-Robots-Tag: noindex`. */
  readonly text: string;
}

/** What `audit --json` prints. */
export interface AuditJson {
  readonly url: string;
  readonly crawler: string;
  /** The robots.txt verdict, as `check --json` gives it. */
  readonly robots: CheckJson;
  readonly page: {
    readonly status: number;
    readonly contentType: string | null;
    readonly location: string | null;
    readonly xRobotsTag: readonly string[];
    readonly meta: readonly { readonly name: string; readonly content: string }[];
  };
  /** What the page asks of this crawler, headers and meta tags combined restrictively. */
  readonly directives: PageDirectives;
  readonly crawlable: boolean;
  /** Whether the page can be indexed with its content (false when it cannot be crawled). */
  readonly indexable: boolean;
  /**
   * How it can be indexed: `yes` with its content, `no`, or `url-only` when it cannot be crawled (Google can index the
   * bare URL from links to it, without its content, and never sees a noindex on it).
   */
  readonly index: 'yes' | 'no' | 'url-only';
  readonly followable: boolean;
  /** Why, one sentence each, most important first. */
  readonly reasons: readonly string[];
  /** The answer in a few words. */
  readonly verdict: string;
}

/** What applies to the crawler: for a profile its tokens, for several tokens each of them, combined. */
function forCrawler(directives: RobotsDirectives, crawler: UaCrawler): PageDirectives {
  const who: (string | CrawlerProfile)[] =
    crawler.profile !== null
      ? [crawler.profile]
      : typeof crawler.input === 'string'
        ? [crawler.input]
        : [...(crawler.input as string[])];
  return mergeDirectives(...who.map((w) => directivesFor(directives, w)));
}

/** The sources (meta tags, header lines) that set a flag for the crawler. */
function sourcesOf(page: FetchedPage, crawler: UaCrawler, flag: 'noindex' | 'nofollow'): DirectiveSource[] {
  const sources: DirectiveSource[] = [];
  for (const tag of page.html === null ? [] : extractRobotsMeta(page.html)) {
    if (forCrawler(parseRobotsMeta(tag.content, tag.name), crawler)[flag]) {
      sources.push({ kind: 'meta', text: `<meta name="${tag.name}" content="${tag.content}">` });
    }
  }
  for (const value of page.xRobotsTag) {
    if (forCrawler(parseXRobotsTag([value]), crawler)[flag])
      sources.push({ kind: 'header', text: `X-Robots-Tag: ${value}` });
  }
  return sources;
}

const list = (sources: readonly DirectiveSource[]) => sources.map((s) => s.text).join(' and ');

/** What the audit found, before it is printed. */
type Findings = Omit<AuditJson, 'url' | 'crawler' | 'robots' | 'page'>;

/** Why the page's status keeps it out of the index; null for a 2xx. */
function statusProblem(page: FetchedPage): string | null {
  const status = page.status;
  if (status >= 300 && status < 400) {
    return `the URL redirects (HTTP ${status}) to ${page.location ?? '(no Location)'}: the target is what gets indexed`;
  }
  if (status === 429 || status >= 500)
    return `HTTP ${status}: a server error; crawlers retry later and drop the URL if it lasts`;
  if (status >= 400) return `HTTP ${status}: an error page is not indexed`;
  if (status < 200 || status >= 300) return `HTTP ${status}: not a page that can be indexed`;
  return null;
}

/** Puts robots.txt, the page's status, its headers and meta tags together: the verdict and its reasons. */
function judge(robots: CheckJson, page: FetchedPage, crawler: UaCrawler): Findings {
  const all = pageDirectives({
    ...(page.html === null ? {} : { html: page.html }),
    headers: page.xRobotsTag,
  });
  const directives = forCrawler(all, crawler);
  const crawlable = robots.allowed;
  const reasons: string[] = [];
  let indexable = crawlable;

  if (!crawlable) {
    reasons.push(
      robots.rule !== null
        ? `robots.txt blocks it: line ${robots.line}: ${robots.ruleText}`
        : `robots.txt blocks the whole site: ${robots.policy.message}`,
    );
  }
  const problem = statusProblem(page);
  if (problem !== null) {
    if (crawlable) {
      indexable = false;
      reasons.push(problem);
    } else {
      // A blocked URL is never fetched: its status cannot keep the bare URL out of the index.
      reasons.push(`the page answers HTTP ${page.status}, which a crawler blocked by robots.txt never sees`);
    }
  }

  const noindex = sourcesOf(page, crawler, 'noindex');
  if (!crawlable) {
    // Said once: a blocked URL is never fetched, so it can only be indexed bare, and no noindex on it is ever seen.
    reasons.push(
      directives.noindex
        ? `Google can still index the URL, without its content, when pages link to it: it never fetches the page, so it never sees its noindex (${list(noindex)}); allow crawling for the noindex to work`
        : 'Google can still index the URL, without its content, when pages link to it: it never fetches the page (so it would never see a noindex there)',
    );
  } else if (directives.noindex) {
    indexable = false;
    reasons.push(`the page says noindex: ${list(noindex)}`);
  }
  if (directives.unavailableAfter !== null && directives.unavailableAfter <= Date.now()) {
    indexable = false;
    reasons.push(`unavailable_after has passed (${new Date(directives.unavailableAfter).toISOString()})`);
  }
  const followable = crawlable && !directives.nofollow;
  if (crawlable && directives.nofollow)
    reasons.push(`its links are not followed: ${list(sourcesOf(page, crawler, 'nofollow'))}`);
  if (crawlable && indexable) reasons.push('nothing stops it');

  const verdict = !crawlable
    ? 'cannot be crawled'
    : indexable
      ? 'can be crawled and indexed'
      : 'can be crawled, will not be indexed';
  const index: AuditJson['index'] = !crawlable ? 'url-only' : indexable ? 'yes' : 'no';
  return { directives, crawlable, indexable, index, followable, reasons, verdict };
}

/** The audit for people. */
function describeAudit(doc: AuditJson, label: string, paint: Paint): string[] {
  const { robots, page, crawlable, indexable, followable, index, verdict } = doc;
  const yes = (ok: boolean, word: string) => (ok ? paint('green', word) : paint('red', word));
  return [
    `${paint('bold', visible(doc.url))}  ${paint('dim', `for ${label}`)}`,
    `  verdict  ${crawlable && indexable ? paint('green', verdict) : paint('red', verdict)}`,
    `  crawl    ${yes(crawlable, crawlable ? 'allowed' : 'blocked')} by ${robots.robotsUrl}${robots.rule !== null ? ` (line ${robots.line}: ${visible(robots.ruleText ?? '')})` : ` (${robots.policy.mode})`}`,
    `  page     HTTP ${page.status}${page.contentType === null ? '' : `, ${page.contentType}`}, ${page.meta.length} robots meta tag(s), ${page.xRobotsTag.length} X-Robots-Tag header(s)`,
    `  index    ${index === 'url-only' ? paint('yellow', 'the bare URL only (see why)') : yes(indexable, index)}`,
    `  follow   ${yes(followable, followable ? 'yes' : 'no')}`,
    ...doc.reasons.map((r, i) => `${i === 0 ? '  why      ' : '           '}${visible(r)}`),
  ];
}

/** Runs `audit`; returns the exit code. */
export async function runAudit(io: Io, target: string, options: AuditOptions, version: string): Promise<number> {
  const crawler = crawlerOfUa(options.ua);
  const timeoutMs = parseTimeout(options.timeout);
  checkUrlArgument(target);
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`cannot audit '${target}': only http and https URLs are supported`);
  }
  const client = crawlClient(crawler, timeoutMs, version);
  const [checked, page] = await Promise.all([
    checkUrl(client, url.href, crawler, timeoutMs),
    fetchPage(url, { timeoutMs, userAgent: cliUserAgent(version) }).catch((error: unknown) => {
      if (error instanceof PageFetchError) throw new CliError(`cannot fetch '${url.href}': ${error.message}`);
      throw error;
    }),
  ]);
  const robots = checked.result;
  const findings = judge(robots, page, crawler);
  sayRewrites(io, crawler);
  if (checked.networkFailure) sayUnreachable(io, robots);
  const doc: AuditJson = {
    url: url.href,
    crawler: crawler.profile?.name ?? crawler.label,
    robots,
    page: {
      status: page.status,
      contentType: page.contentType,
      location: page.location,
      xRobotsTag: page.xRobotsTag,
      meta: page.html === null ? [] : extractRobotsMeta(page.html).map((t) => ({ name: t.name, content: t.content })),
    },
    ...findings,
  };
  // The exit status follows the verdict: an unreachable robots.txt blocks the page, as Google treats it (exit 1).
  const code = findings.crawlable && findings.indexable ? 0 : 1;
  const text = options.json
    ? JSON.stringify(doc, null, 2)
    : describeAudit(doc, crawler.label, painter(useColor(io))).join('\n');
  io.stdout.write(`${text}\n`);
  return code;
}
