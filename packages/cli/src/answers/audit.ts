/**
 * `audit`'s answer, as `audit --json` prints it and the MCP tool `audit` returns it: robots.txt, the page's
 * `X-Robots-Tag` headers and its robots meta tags together: can the crawler fetch the page, may it index it and follow
 * its links, and why; and the AI usage preferences that apply to it, from robots.txt's `Content-Usage` rule and the
 * page's `Content-Usage` header, each and combined (the engine's `attachedUsage`: the CLI only fetches the header).
 *
 * The point of putting them together: a `noindex` is only seen by a crawler that may fetch the page. A page blocked
 * by robots.txt cannot say `noindex`; its URL can still be indexed from links, without its content.
 */

import { type AttachedUsage, attachedUsage, type CrawlerProfile, type UsageAnswer } from 'robotskit';
import type { RobotsClient } from 'robotskit/fetch';
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
import type { Network } from '../crawl/network.js';
import { type CheckJson, checkUrl } from '../crawl/verdict.js';
import { CliError } from '../io.js';
import type { UaCrawler } from '../options/ua.js';
import { checkUrlArgument } from '../options/url.js';
import { lineText } from '../output/explanation.js';
import { type FetchedPage, fetchPage, PageFetchError } from '../transport/page.js';

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
  /**
   * What the page answered; null when it could not be fetched while robots.txt blocks it (the site unreachable: the
   * verdict needs no page, as a blocked crawler never asks for it). A page that cannot be fetched when robots.txt
   * allows it is an error (exit 2).
   */
  readonly page: {
    readonly status: number;
    readonly contentType: string | null;
    readonly location: string | null;
    readonly xRobotsTag: readonly string[];
    readonly meta: readonly { readonly name: string; readonly content: string }[];
  } | null;
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
  /**
   * The AI usage preferences for this crawler (draft-ietf-aipref-attach): what robots.txt's `Content-Usage` rules
   * state (with the deciding lines), what the page's `Content-Usage` header states (null without one, or when the
   * page could not be fetched), and both combined, most restrictive per category (empty when it cannot be crawled).
   */
  readonly usage: UsageJson;
}

/** `audit --json`'s `usage`. */
export interface UsageJson extends Omit<AttachedUsage, 'robotsTxt'> {
  readonly robotsTxt: {
    readonly preferences: AttachedUsage['robotsTxt'];
    /** The deciding `Content-Usage` rules, each with its line as written. */
    readonly rules: readonly { readonly line: number; readonly text: string }[];
  };
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
type Findings = Omit<AuditJson, 'url' | 'crawler' | 'robots' | 'page' | 'usage'>;

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
function judge(robots: CheckJson, fetched: FetchedPage | string, crawler: UaCrawler): Findings {
  // A page that could not be fetched (its error, in words) is judged only when robots.txt blocks it: no directives.
  const page: FetchedPage =
    typeof fetched === 'string'
      ? { status: 0, contentType: null, location: null, xRobotsTag: [], contentUsage: [], html: null, challenge: false }
      : fetched;
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
  const problem = typeof fetched === 'string' ? null : statusProblem(page);
  if (typeof fetched === 'string') {
    reasons.push(
      `the page could not be fetched either (${fetched}), which a crawler blocked by robots.txt never tries`,
    );
  } else if (problem !== null) {
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

/** The page `audit` is asked about: an http or https URL. @throws CliError otherwise. */
export function auditTarget(target: string): URL {
  checkUrlArgument(target);
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`cannot audit '${target}': only http and https URLs are supported`);
  }
  return url;
}

/** An audit done: its JSON, its exit status, and whether the robots.txt could not be fetched at all. */
interface Audited {
  readonly doc: AuditJson;
  /** 0 crawlable and indexable, 1 not. */
  readonly code: number;
  readonly networkFailure: boolean;
}

/** What {@link auditAnswer} fetches with. */
interface AuditNetwork {
  /** The crawl client (one robots.txt fetch per origin, cached). */
  readonly client: RobotsClient;
  readonly network: Network;
  readonly timeoutMs: number;
}

/**
 * Audits the page `url` for `crawler`: its robots.txt through the client, the page fetched as robotskit.
 * @throws CliError when the page cannot be fetched while robots.txt allows it.
 */
export async function auditAnswer(url: URL, crawler: UaCrawler, how: AuditNetwork): Promise<Audited> {
  const { client, network, timeoutMs } = how;
  const [checked, page] = await Promise.all([
    checkUrl(client, url.href, crawler, timeoutMs),
    fetchPage(url, { timeoutMs, userAgent: network.userAgent, guard: network.pageGuard }).catch((error: unknown) => {
      // In words, for the verdict when robots.txt blocks the page anyway (an unreachable site), else as the error.
      if (error instanceof PageFetchError) return error.message;
      throw error;
    }),
  ]);
  const robots = checked.result;
  if (typeof page === 'string' && robots.allowed) throw new CliError(`cannot fetch '${url.href}': ${page}`);
  const findings = judge(robots, page, crawler);
  const usage = await usageOf(client, url, crawler, robots.allowed, typeof page === 'string' ? [] : page.contentUsage);
  const doc: AuditJson = {
    url: url.href,
    crawler: crawler.profile?.name ?? crawler.label,
    robots,
    page:
      typeof page === 'string'
        ? null
        : {
            status: page.status,
            contentType: page.contentType,
            location: page.location,
            xRobotsTag: page.xRobotsTag,
            meta:
              page.html === null ? [] : extractRobotsMeta(page.html).map((t) => ({ name: t.name, content: t.content })),
          },
    ...findings,
    usage,
  };
  // The exit status follows the verdict: an unreachable robots.txt blocks the page, as Google treats it (exit 1).
  return { doc, code: findings.crawlable && findings.indexable ? 0 : 1, networkFailure: checked.networkFailure };
}

/**
 * The usage preferences of the page: the robots.txt answer (the crawl client's, from the file it holds: no second
 * fetch) and the page's `Content-Usage` header lines, combined by the engine.
 */
async function usageOf(
  client: RobotsClient,
  url: URL,
  crawler: UaCrawler,
  allowed: boolean,
  header: readonly Uint8Array[],
): Promise<UsageJson> {
  const verdict = await client.explain(url.href, crawler.input);
  const answer: UsageAnswer = verdict.explanation?.usage ?? {
    crawlable: allowed,
    preferences: {},
    rules: [],
    contentSignal: null,
  };
  const { robots } = await client.policyFor(verdict.origin);
  const attached = attachedUsage(answer, header);
  return {
    ...attached,
    robotsTxt: {
      preferences: attached.robotsTxt,
      rules: answer.rules.map((r) => ({
        line: r.line,
        text: robots === null ? r.expression : lineText(robots, r.line),
      })),
    },
  };
}
