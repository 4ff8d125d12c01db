/**
 * A file's headline: what each watched crawler gets from it now, in one line, for the report's first glance ("blocks
 * everything for Googlebot and other crawlers (*)", "blocks 24% of your sitemap URLs (12 of 50) for Googlebot",
 * "HTML page: no rules, all allowed", "unreachable since …: Google treats the site as disallowed until …"). The
 * share of sitemap URLs is the one measured when the applying version was recorded (`sitemap-share.ts`), said only
 * for a crawler that gets some of the site and loses some but not all of the sitemap's URLs. The engine answers every question: `crawlerAccess` what the rules leave
 * each crawler, the effective policy (`effectivePolicy`, through the service's resolver) whether rules apply at all,
 * `looksLikeHtml` whether the body is a page. The facts go in, the headline comes out; the rules' answers are
 * computed in the analysis threads (the comparison of a large file costs up to a second: never on the event loop) and
 * kept per body (a body never changes), so listing many files costs one comparison per distinct body, and requests
 * that ask at once wait for the same one.
 */

import { ANY_CRAWLER } from 'robotskit';
import type { RetrievalOutcome } from 'robotskit/fetch';
import type { CrawlerAccess } from 'robotskit/semantics';
import type { SitemapShare } from '../storage/sitemap-shares.js';
import type { AnalysisThreads, BodyAccess } from './threads.js';
import { DEPENDED_ON_CRAWLER_NAMES, WATCHED_CRAWLER_NAMES } from './watched-crawlers.js';

/** How a headline reads at a glance: `bad` (a crawler the site depends on gets nothing), `warn`, `good`, `neutral`. */
type HeadlineTone = 'bad' | 'warn' | 'good' | 'neutral';

/** A file's headline. */
export interface Headline {
  readonly tone: HeadlineTone;
  readonly text: string;
  /** What each watched crawler gets (`nothing`, `everything`, `some`); empty when no rules apply. */
  readonly crawlers: { crawler: string; access: CrawlerAccess['access'] }[];
  /** The applying version's share of sitemap URLs blocked, as measured; null when none was measured or no rules apply. */
  readonly sitemapShare: HeadlineShare | null;
}

/** A version's share of blocked sitemap URLs as a headline shows it. */
export interface HeadlineShare {
  readonly status: SitemapShare['status'];
  /** When it was measured (ISO 8601). */
  readonly measuredAt: string;
  readonly checked: number;
  readonly capped: boolean;
  readonly sitemaps: string[];
  /** Per watched crawler: sitemap URLs blocked, and that as a whole percentage of `checked`. */
  readonly crawlers: { crawler: string; blocked: number; percent: number }[];
  /** What the share is, in plain words (always said when it is unknown, partial or a sample). */
  readonly note: string;
}

/** The facts a headline is read from. */
export interface HeadlineFacts {
  /** The effective policy now (the engine's), or null without a resolver: then the last fetch's outcome decides. */
  readonly policy: {
    readonly mode: RetrievalOutcome;
    readonly reason: string;
    readonly since: number | null;
    readonly until: number | null;
  } | null;
  /** The last fetch's outcome; null before the first fetch. */
  readonly lastOutcome: RetrievalOutcome | null;
  /** Why the last fetch was not fetched, in the engine's words (`host not found`, `server error (HTTP 503)`). */
  readonly statusReason: string | null;
  /**
   * The body whose rules apply (the last good one while the file fails), with its hash and Content-Type; its bytes
   * are read only when this body's answers are not known yet.
   */
  readonly body: {
    readonly hash: string;
    readonly bytes: () => Promise<Uint8Array | undefined>;
    readonly contentType: string | null;
  } | null;
  /** When the current run of failures began (epoch ms), or null. */
  readonly failingSince: number | null;
  /** Whether any fetch of the file ever succeeded: without one, crawling stays stopped until a fetch succeeds. */
  readonly everFetched: boolean;
  /** The share of sitemap URLs the applying version blocks, as measured when it was recorded; null when none was. */
  readonly sitemapShare?: SitemapShare | null;
}

/** Per body hash: what the watched crawlers get (bodies never change), or the answer being computed. */
const accessCache = new Map<string, Promise<BodyAccess | null>>();
const CACHE_SIZE = 500;
/** Bounds of one body's comparisons: a headline never holds up the API on a pathological file. */
const HEADLINE_BOUNDS = { maxStates: 20_000, timeoutMs: 1_000 };

function accessOf(body: NonNullable<HeadlineFacts['body']>, threads: AnalysisThreads): Promise<BodyAccess | null> {
  const cached = accessCache.get(body.hash);
  if (cached) return cached;
  const computed = (async () => {
    const bytes = await body.bytes();
    if (bytes === undefined) return null;
    return threads.access(bytes, body.contentType, WATCHED_CRAWLER_NAMES, HEADLINE_BOUNDS);
  })();
  if (accessCache.size >= CACHE_SIZE) accessCache.delete(accessCache.keys().next().value as string);
  accessCache.set(body.hash, computed);
  // A failure (the threads closed, the body gone) is not kept: the next request asks again.
  computed.then(
    (value) => value === null && accessCache.delete(body.hash),
    () => accessCache.delete(body.hash),
  );
  return computed;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function label(crawler: string): string {
  return crawler === ANY_CRAWLER ? 'other crawlers (*)' : crawler;
}

/** `A`, `A and B`, `A, B and C`; `*` ("other crawlers (*)") last. */
function names(list: readonly string[]): string {
  const sorted = [...list.filter((c) => c !== ANY_CRAWLER), ...list.filter((c) => c === ANY_CRAWLER)].map(label);
  return sorted.length === 1 ? (sorted[0] as string) : `${sorted.slice(0, -1).join(', ')} and ${sorted.at(-1)}`;
}

/** `24%`, never `0%` or `100%` for a share that is neither. */
function percentText(blocked: number, checked: number): string {
  const percent = (100 * blocked) / checked;
  if (percent < 1) return 'under 1%';
  if (percent > 99) return 'over 99%';
  return `${Math.round(percent)}%`;
}

/** The counts after a share ("12 of 50", "12 of the first 10000 read", "12 of 50 read; some sitemaps unreachable"). */
function countsText(blocked: number, share: SitemapShare): string {
  if (share.status === 'partial') return `${blocked} of ${share.checked} read; some sitemaps unreachable`;
  return share.capped ? `${blocked} of the first ${share.checked} read` : `${blocked} of ${share.checked}`;
}

/** What a headline says of a measured share, in plain words. */
function shareNote(share: SitemapShare): string {
  const sample = share.capped ? `; a sample: ${share.reason ?? 'the walk stopped at a limit'}` : '';
  switch (share.status) {
    case 'measured':
      return `measured over ${share.checked} sitemap URLs${sample}`;
    case 'partial':
      return `measured over ${share.checked} sitemap URLs; ${share.reason ?? 'some sitemaps could not be read'}`;
    case 'no-sitemap':
      return 'no sitemap: the file lists none and /sitemap.xml has no URLs, so no share of sitemap URLs is measured';
    case 'no-urls':
      return 'the sitemaps list no URL of this site, so no share of sitemap URLs is measured';
    case 'unreachable':
      return `the sitemaps could not be read, so the share of sitemap URLs blocked is unknown${share.reason ? ` (${share.reason})` : ''}`;
    default:
      return `the share of sitemap URLs blocked was not measured (${share.reason ?? 'it failed'})`;
  }
}

/** A stored share as the headline shows it. */
function headlineShare(share: SitemapShare): HeadlineShare {
  return {
    status: share.status,
    measuredAt: iso(share.measuredAt),
    checked: share.checked,
    capped: share.capped,
    sitemaps: [...share.sitemaps],
    crawlers: share.crawlers.map((c) => ({
      ...c,
      percent: share.checked === 0 ? 0 : Math.round((100 * c.blocked) / share.checked),
    })),
    note: shareNote(share),
  };
}

/**
 * The crawlers that get some of the site, grouped by the sitemap URLs they lose (`key` null: no share to say, none or
 * all of the sitemap blocked, or not measured), groups with a share first, most blocked first.
 */
function someGroups(some: readonly string[], share: SitemapShare | null) {
  const measured = share !== null && (share.status === 'measured' || share.status === 'partial') && share.checked > 0;
  const blockedOf = new Map(measured ? share.crawlers.map((c) => [c.crawler, c.blocked]) : []);
  const groups = new Map<number | null, string[]>();
  for (const crawler of some) {
    const blocked = blockedOf.get(crawler);
    const key = blocked !== undefined && share !== null && blocked > 0 && blocked < share.checked ? blocked : null;
    groups.set(key, [...(groups.get(key) ?? []), crawler]);
  }
  return [...groups].sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : b - a));
}

/** What the rules leave the watched crawlers, in words and tone. */
async function rulesHeadline(
  body: NonNullable<HeadlineFacts['body']>,
  share: SitemapShare | null,
  threads: AnalysisThreads,
): Promise<Headline> {
  const sitemapShare = share === null ? null : headlineShare(share);
  const known = await accessOf(body, threads);
  if (known === null) return { tone: 'neutral', text: 'rules apply', crawlers: [], sitemapShare };
  const { html, noRules, access } = known;
  const crawlers = access.map((a) => ({ crawler: a.crawler, access: a.access }));
  const prefix = html ? 'HTML page: ' : '';
  if (noRules) return { tone: html ? 'warn' : 'good', text: `${prefix}no rules, all allowed`, crawlers, sitemapShare };
  const nothing = access.filter((a) => a.access === 'nothing').map((a) => a.crawler);
  const some = access.filter((a) => a.access === 'some').map((a) => a.crawler);
  const everything = access.filter((a) => a.access === 'everything').map((a) => a.crawler);
  const depended = new Set(DEPENDED_ON_CRAWLER_NAMES.map((n) => n.toLowerCase()));
  const parts: string[] = [];
  let sitemapLoss = false;
  if (nothing.length === access.length) parts.push('blocks everything for every crawler');
  else {
    if (nothing.length > 0) parts.push(`blocks everything for ${names(nothing)}`);
    const groups = someGroups(some, share);
    groups.forEach(([blocked, group], i) => {
      // The last group is everyone left when no crawler gets everything: "every crawler", or "the others".
      const rest = i === groups.length - 1 && everything.length === 0;
      const who = rest ? (parts.length === 0 ? 'every crawler' : 'the others') : names(group);
      if (blocked === null || share === null) parts.push(`blocks some URLs for ${who}`);
      else {
        if (group.some((c) => depended.has(c.toLowerCase()))) sitemapLoss = true;
        const pct = percentText(blocked, share.checked);
        parts.push(`blocks ${pct} of your sitemap URLs (${countsText(blocked, share)}) for ${who}`);
      }
    });
    if (parts.length === 0) parts.push('rules block nothing: all allowed');
    else if (everything.length > 0 && everything.length <= 3) parts.push(`allows everything for ${names(everything)}`);
  }
  const dependedBlocked = nothing.some((c) => depended.has(c.toLowerCase()));
  return {
    // Sitemap URLs (pages the site asks to have crawled) blocked for a crawler it depends on: worth a look.
    tone: dependedBlocked ? 'bad' : html || sitemapLoss ? 'warn' : 'good',
    text: prefix + parts.join('; '),
    crawlers,
    sitemapShare,
  };
}

/** The headline of a file, or null before its first fetch; the rules' answers are computed in `threads`. */
export async function headlineOf(facts: HeadlineFacts, threads: AnalysisThreads): Promise<Headline | null> {
  if (facts.lastOutcome === null) return null;
  const mode = facts.policy?.mode ?? facts.lastOutcome;
  const failing = facts.lastOutcome === 'disallow-all';
  const since = facts.policy?.since ?? facts.failingSince;
  const why = facts.statusReason === null ? '' : ` (${facts.statusReason})`;
  const unreachable = `unreachable since ${since === null ? 'the last fetch' : iso(since)}${why}`;
  if (mode === 'disallow-all') {
    const until = facts.policy?.until ?? null;
    const text =
      !facts.everFetched || facts.policy?.reason === 'no-good-version' || until === null
        ? `${unreachable}: Google treats the site as disallowed until a fetch succeeds`
        : `${unreachable}: Google treats the site as disallowed until ${iso(until)}`;
    return { tone: 'bad', text, crawlers: [], sitemapShare: null };
  }
  if (mode === 'allow-all') {
    const text = failing ? `${unreachable}: no cached rules, all allowed` : `no robots.txt${why}: all allowed`;
    return { tone: failing ? 'warn' : 'neutral', text, crawlers: [], sitemapShare: null };
  }
  if (facts.body === null) return { tone: 'neutral', text: 'rules apply', crawlers: [], sitemapShare: null };
  const rules = await rulesHeadline(facts.body, facts.sitemapShare ?? null, threads);
  if (!failing) return rules;
  return {
    ...rules,
    tone: rules.tone === 'bad' ? 'bad' : 'warn',
    text: `${unreachable}: the last good version applies; it ${rules.text.replace(/^HTML page: /, '')}`,
  };
}
