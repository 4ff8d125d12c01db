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
import { painter, useColor, visible } from '../format.js';
import { CliError, type Io } from '../io.js';
import {
  checkUrlArgument,
  cliUserAgent,
  parseTimeout,
  type ResolvedCrawler,
  resolveCrawler,
  sayRewrites,
} from '../net.js';
import { type FetchedPage, fetchPage, PageFetchError } from '../page.js';
import { type CheckJson, checkOne, cliClient } from './check.js';

/** Options of `audit`, as commander parsed them. */
export interface AuditOptions {
  readonly ua?: string;
  readonly json?: boolean;
  readonly timeout: string;
}

/** Where a directive came from. */
export interface DirectiveSource {
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
function forCrawler(directives: RobotsDirectives, crawler: ResolvedCrawler): PageDirectives {
  const who: (string | CrawlerProfile)[] =
    crawler.profile !== null
      ? [crawler.profile]
      : typeof crawler.input === 'string'
        ? [crawler.input]
        : [...(crawler.input as string[])];
  return mergeDirectives(...who.map((w) => directivesFor(directives, w)));
}

/** The sources (meta tags, header lines) that set a flag for the crawler. */
function sourcesOf(page: FetchedPage, crawler: ResolvedCrawler, flag: 'noindex' | 'nofollow'): DirectiveSource[] {
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

/** Runs `audit`; returns the exit code. */
export async function runAudit(io: Io, target: string, options: AuditOptions, version: string): Promise<number> {
  const crawler = resolveCrawler(options.ua);
  const timeoutMs = parseTimeout(options.timeout);
  checkUrlArgument(target);
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`cannot audit '${target}': only http and https URLs are supported`);
  }
  const client = cliClient(crawler, timeoutMs, version);
  const [checked, page] = await Promise.all([
    checkOne(client, url.href, crawler, timeoutMs),
    fetchPage(url, { timeoutMs, userAgent: cliUserAgent(version) }).catch((error: unknown) => {
      if (error instanceof PageFetchError) throw new CliError(`cannot fetch '${url.href}': ${error.message}`);
      throw error;
    }),
  ]);
  const robots = checked.result;

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
  const status = page.status;
  const statusProblem =
    status >= 300 && status < 400
      ? `the URL redirects (HTTP ${status}) to ${page.location ?? '(no Location)'}: the target is what gets indexed`
      : status === 429 || status >= 500
        ? `HTTP ${status}: a server error; crawlers retry later and drop the URL if it lasts`
        : status >= 400
          ? `HTTP ${status}: an error page is not indexed`
          : status < 200 || status >= 300
            ? `HTTP ${status}: not a page that can be indexed`
            : null;
  if (statusProblem !== null) {
    if (crawlable) {
      indexable = false;
      reasons.push(statusProblem);
    } else {
      // A blocked URL is never fetched: its status cannot keep the bare URL out of the index.
      reasons.push(`the page answers HTTP ${status}, which a crawler blocked by robots.txt never sees`);
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
  sayRewrites(io, crawler);
  if (checked.networkFailure) {
    io.stderr.write(
      `robotskit: cannot fetch '${robots.robotsUrl}': ${robots.problem} (until it can be, Google treats every URL there as disallowed)\n`,
    );
  }
  // The exit status follows the verdict: an unreachable robots.txt blocks the page, as Google treats it (exit 1).
  const code = crawlable && indexable ? 0 : 1;
  const index: AuditJson['index'] = !crawlable ? 'url-only' : indexable ? 'yes' : 'no';

  if (options.json) {
    const doc: AuditJson = {
      url: url.href,
      crawler: crawler.profile?.name ?? crawler.label,
      robots,
      page: {
        status,
        contentType: page.contentType,
        location: page.location,
        xRobotsTag: page.xRobotsTag,
        meta: page.html === null ? [] : extractRobotsMeta(page.html).map((t) => ({ name: t.name, content: t.content })),
      },
      directives,
      crawlable,
      indexable,
      index,
      followable,
      reasons,
      verdict,
    };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return code;
  }

  const paint = painter(useColor(io));
  const yes = (ok: boolean, word: string) => (ok ? paint('green', word) : paint('red', word));
  const tags = page.html === null ? 0 : extractRobotsMeta(page.html).length;
  const out = [
    `${paint('bold', visible(url.href))}  ${paint('dim', `for ${crawler.label}`)}`,
    `  verdict  ${crawlable && indexable ? paint('green', verdict) : paint('red', verdict)}`,
    `  crawl    ${yes(crawlable, crawlable ? 'allowed' : 'blocked')} by ${robots.robotsUrl}${robots.rule !== null ? ` (line ${robots.line}: ${visible(robots.ruleText ?? '')})` : ` (${robots.policy.mode})`}`,
    `  page     HTTP ${status}${page.contentType === null ? '' : `, ${page.contentType}`}, ${tags} robots meta tag(s), ${page.xRobotsTag.length} X-Robots-Tag header(s)`,
    `  index    ${index === 'url-only' ? paint('yellow', 'the bare URL only (see why)') : yes(indexable, index)}`,
    `  follow   ${yes(followable, followable ? 'yes' : 'no')}`,
    ...reasons.map((r, i) => `${i === 0 ? '  why      ' : '           '}${visible(r)}`),
  ];
  io.stdout.write(`${out.join('\n')}\n`);
  return code;
}
