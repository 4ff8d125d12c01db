/**
 * What the tester and the impact check read from a request: URLs (absolute or paths), sites (a URL or a bare host),
 * crawler names (the engine's reading), and the rules to decide with (text, a live file, a stored version), each a
 * 400 or 404 in words when it cannot be used.
 */

import { CrawlerInputError, parseRobotsTxt, type ResolvedCrawler, type RobotsTxt, RobotsUrlError } from 'robotskit';
import { fetchStatusOf, type RetrievalResult } from 'robotskit/fetch';
import type { RulesSide } from '../analysis/impact.js';
import { crawlersNamed, linesOf } from '../analysis/verdicts.js';
import { retrieveRobotsTxt } from '../net/robots-fetch.js';
import type { StoredVersion } from '../storage/report.js';
import type { ApiContext } from './context.js';
import { ApiError } from './errors.js';

/** The crawlers named, by the engine's rule; a blank name is a 400. */
export function crawlersOr400(names: readonly string[]): ResolvedCrawler[] {
  try {
    return crawlersNamed(names);
  } catch (error) {
    if (error instanceof CrawlerInputError) throw new ApiError(400, 'invalid-request', error.message);
    throw error;
  }
}

/** Schemes whose sites have a robots.txt the service can read (FTP through the guard's FTP client). */
const ROBOTS_SCHEMES = new Set(['http:', 'https:', 'ftp:']);

/** An absolute http(s) or ftp URL, or a path (on `base` when there is one); anything else is a 400 naming it. */
export function checkTestUrl(typed: string, base: string | null): string {
  if (typed.startsWith('/')) return base === null ? typed : new URL(typed, base).href;
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new ApiError(400, 'invalid-request', `'${typed.slice(0, 200)}' is neither an absolute URL nor a path (/…)`);
  }
  if (!ROBOTS_SCHEMES.has(url.protocol)) {
    throw new ApiError(400, 'invalid-request', `'${typed.slice(0, 200)}' is not an http(s) or ftp URL`);
  }
  return url.href;
}

/** A site as typed: an http(s) or ftp URL, or a bare host (`example.com`, read as https). */
export function siteUrlOr400(typed: string): string {
  let url: URL;
  const text = typed.trim();
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^:/]+:\d+(\/|$)/.test(text) ? text : `https://${text}`);
  } catch {
    throw new ApiError(400, 'invalid-request', `'${typed.slice(0, 200)}' is not a URL (try https://example.com/)`);
  }
  if (!ROBOTS_SCHEMES.has(url.protocol)) {
    throw new ApiError(400, 'invalid-request', `'${typed.slice(0, 200)}' is not an http(s) or ftp URL`);
  }
  return url.href;
}

/** A site's live robots.txt, by the engine's retrieval over the guarded fetch; a URL without one is a 400. */
export async function liveOr400(context: ApiContext, url: string): Promise<RetrievalResult> {
  try {
    return await retrieveRobotsTxt(url, { fetch: context.fetch, now: context.now });
  } catch (error) {
    if (error instanceof RobotsUrlError) throw new ApiError(400, 'invalid-request', error.message);
    throw error;
  }
}

/** A live retrieval as the answers sum it up: outcome, HTTP status, the engine's report status and error. */
export function retrievalSummary(r: RetrievalResult) {
  const status = fetchStatusOf(r);
  return {
    robotsUrl: r.robotsUrl,
    finalUrl: r.finalUrl,
    outcome: r.outcome,
    status: r.status,
    fetchStatus: status.status,
    error: r.error === null ? null : { kind: r.error.kind, code: r.error.code, message: r.error.message },
    summary: status.reason,
  };
}

/**
 * The rules of a robots.txt, text or bytes: bytes are parsed as bytes (the engine decides on them), text is for
 * display. The engine parses the first 500 KiB in bytes, as Google does; the lines quoted are those it parsed.
 */
export function sideOfText(input: string | Uint8Array): RulesSide {
  const robots = parseRobotsTxt(input);
  return { robots, mode: 'rules', lines: linesOf(robots.source), input };
}

/** The rules of a stored version, or none (its outcome, the engine's, says what applies instead). */
export function sideOfVersion(v: StoredVersion): RulesSide {
  const mode = v.outcome;
  if (mode !== 'rules') return { robots: null, mode, lines: null };
  return sideOfText(v.content ?? new Uint8Array());
}

/** How much of a file the engine read: its size and the bytes parsed, in bytes; `truncated` past 500 KiB. */
export function extentOf(robots: RobotsTxt | null, retrieval?: RetrievalResult) {
  if (robots === null) return { size: retrieval?.size ?? null, parsedSize: null, truncated: false };
  // A live file was cut by the retrieval already (it keeps the first 500 KiB): its size is the answer's.
  return {
    size: retrieval?.size ?? robots.size,
    parsedSize: robots.parsedSize,
    truncated: (retrieval?.truncated ?? false) || robots.truncated,
  };
}
