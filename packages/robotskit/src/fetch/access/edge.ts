/**
 * What the access check calls a disagreement between the edge (CDN, WAF, paywall) and the robots.txt, and as whom it
 * asks: the statuses an edge refuses a crawler with, what a challenge page looks like, which `User-Agent` a crawler
 * named by the engine's rule (`resolveCrawlers`) is asked with, and each finding in one sentence.
 */

import type { CrawlerProfile } from '../../crawlers/profile.js';
import { crawlerInputOf, type ResolvedCrawler } from '../../crawlers/resolve.js';
import { crawlerUserAgent } from '../../crawlers/user-agents.js';
import type { RetrievalResult } from '../shared/types.js';
import { sameAnswer } from './cache-copies.js';

/** Statuses an edge refuses a crawler with. */
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 402, 403, 429]);

/** What one access finding is: refused at the edge, a challenge, another robots.txt, an older cached robots.txt. */
export type AccessFindingKind = 'edge-refuses' | 'challenge' | 'robots-differs' | 'stale-robots';

/** One place where the edge disagrees with the file, in one sentence. */
export interface AccessFinding {
  readonly kind: AccessFindingKind;
  readonly message: string;
}

/** A crawler the access check asks as. */
export interface AccessCrawler {
  /** The catalogue name, or the token(s) as resolved. */
  readonly name: string;
  /** What the robots.txt is asked with (`RobotsTxt.explain`). */
  readonly input: string | CrawlerProfile | readonly string[];
  /** The `User-Agent` header sent as this crawler. */
  readonly userAgent: string;
  /** Whether the operator documents that `User-Agent` string (false: built from the crawler's token). */
  readonly documented: boolean;
}

/**
 * The crawler that crawlers resolved from one name stand for (`resolveCrawlers`' answer): one catalogue crawler sends
 * its operator's `User-Agent` (the engine's `crawlerUserAgent`); a token, or several, one built from the first name.
 */
export function accessCrawlerOf(resolved: readonly ResolvedCrawler[]): AccessCrawler {
  const profile = resolved.length === 1 ? resolved[0]!.profile : null;
  const input = crawlerInputOf(resolved);
  if (profile !== null) return { name: profile.name, input, ...crawlerUserAgent(profile) };
  const name = resolved.map((c) => c.label).join(', ');
  const first = resolved[0]?.label ?? name;
  return { name, input, userAgent: `Mozilla/5.0 (compatible; ${first}/1.0)`, documented: false };
}

/** Whether a 2xx HTML page is a challenge rather than the page (the usual interstitials' own words). */
export function looksLikeChallenge(html: string): boolean {
  const head = html.slice(0, CHALLENGE_CHARS).toLowerCase();
  return (
    /<title>\s*(just a moment|attention required|access denied|verify you are human|are you a robot)/.test(head) ||
    head.includes('/cdn-cgi/challenge-platform/') ||
    head.includes('captcha-delivery.com') ||
    /class="g-recaptcha"|class="h-captcha"|cf-turnstile/.test(head)
  );
}

/** How much of a page {@link looksLikeChallenge} reads, in UTF-16 code units. */
export const CHALLENGE_CHARS = 64 * 1024;

/** Whether a `cf-mitigated` header (its lines joined by commas) says the answer is a challenge. */
export function mitigatedChallenge(value: string | null): boolean {
  return value?.split(',').some((v) => v.trim().toLowerCase() === 'challenge') ?? false;
}

/** The page as one User-Agent was served it; null fields when it could not be fetched (`error` says why). */
export interface ServedPage {
  readonly status: number | null;
  readonly contentType: string | null;
  readonly challenge: boolean;
  readonly error: string | null;
}

/** What the edge did to one crawler, against the file it was served (`served`, against robotskit's `baseline`). */
export function edgeFindings(
  name: string,
  served: RetrievalResult,
  baseline: RetrievalResult,
  allowed: boolean,
  page: ServedPage,
): AccessFinding[] {
  const findings: AccessFinding[] = [];
  if (!sameAnswer(served, baseline)) {
    const how =
      served.status !== baseline.status
        ? `HTTP ${served.status ?? 'none'} instead of HTTP ${baseline.status ?? 'none'}`
        : `${served.body?.length ?? 0} bytes that differ from the ${baseline.body?.length ?? 0} served to robotskit`;
    findings.push({ kind: 'robots-differs', message: `robots.txt is served differently to ${name}: ${how}` });
  }
  if (allowed && page.status !== null && REFUSAL_STATUSES.has(page.status)) {
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
