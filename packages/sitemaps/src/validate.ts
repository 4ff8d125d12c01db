/**
 * Checking raw values against the sitemaps protocol: locations (absolute http(s), length, location rules), W3C
 * Datetime, change frequency, priority. Pure functions; the walk turns their verdicts into diagnostics.
 */

import type { ChangeFreq, SitemapDiagnosticCode, SitemapScope } from './types.js';

/** The protocol's limit: URLs must be shorter than 2,048 characters. */
export const MAX_URL_CHARS = 2048;

const CHANGEFREQS = new Set<string>(['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never']);

/** A location that passed, or why it did not. */
type LocCheck = { readonly url: URL } | { readonly code: SitemapDiagnosticCode; readonly message: string };

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/** Parses `loc` as an absolute http(s) URL; `base` only tells a relative location from garbage. */
export function checkLoc(loc: string, base: string): LocCheck {
  let url: URL;
  try {
    url = new URL(loc);
  } catch {
    // Almost any text resolves against a base; only what has no scheme and no blanks reads as a relative URL.
    const relative = !/\s/.test(loc) && !/^[a-z][a-z0-9+.-]*:/i.test(loc);
    try {
      if (relative) {
        new URL(loc, base);
        return { code: 'relative-url', message: `relative URL ${quote(loc)}: the protocol requires absolute URLs` };
      }
    } catch {
      // Falls through: not a URL at all.
    }
    return { code: 'invalid-url', message: `not a URL: ${quote(loc)}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { code: 'invalid-url', message: `not an http or https URL: ${quote(loc)}` };
  }
  if (url.host === '') return { code: 'invalid-url', message: `URL without a host: ${quote(loc)}` };
  return { url };
}

/** The origin (`scheme://host[:port]`) of an absolute http(s) URL, or null. */
export function httpOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The directory of a sitemap URL: everything up to the last `/` of its path (sitemaps.org "Sitemap file location"). */
export function directoryOf(sitemap: URL): string {
  const path = sitemap.pathname;
  return `${sitemap.origin}${path.slice(0, path.lastIndexOf('/') + 1)}`;
}

/** Where the URLs of one sitemap may point. */
export interface ScopeRule {
  readonly scope: SitemapScope;
  /** The sitemap's origin and directory. */
  readonly origin: string;
  readonly directory: string;
  /** Origins whose robots.txt listed the walk's sitemaps. */
  readonly allowed: ReadonlySet<string>;
}

/** Whether a page URL is within a sitemap's scope. */
export function inScope(url: URL, rule: ScopeRule): boolean {
  switch (rule.scope) {
    case 'none':
      return true;
    case 'origin':
      return url.origin === rule.origin || rule.allowed.has(url.origin);
    default:
      return rule.allowed.has(url.origin) || url.href.startsWith(rule.directory);
  }
}

/** Whether an index may list a sitemap at `url` (same origin, or an allowed one, unless the scope is `none`). */
export function childInScope(url: URL, rule: ScopeRule): boolean {
  return rule.scope === 'none' || url.origin === rule.origin || rule.allowed.has(url.origin);
}

const W3C_DATETIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):(\d{2})))?)?)?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS[month - 1]!;
}

/**
 * Whether `text` is a W3C Datetime (the profile of ISO 8601 the protocol names): `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a
 * date with `Thh:mm`, `Thh:mm:ss` or `Thh:mm:ss.s` and a time zone (`Z` or `±hh:mm`), every field in range.
 */
export function isW3cDatetime(text: string): boolean {
  const m = W3C_DATETIME.exec(text);
  if (m === null) return false;
  const [, y, mo, d, h, mi, s, , tzh, tzm] = m;
  const year = Number(y);
  if (mo !== undefined) {
    const month = Number(mo);
    if (month < 1 || month > 12) return false;
    if (d !== undefined && (Number(d) < 1 || Number(d) > daysIn(year, month))) return false;
  }
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59)) return false;
  if (s !== undefined && Number(s) > 59) return false;
  if (tzh !== undefined && (Number(tzh) > 23 || Number(tzm) > 59)) return false;
  return true;
}

/** Whether a feed date (RSS `pubDate`, RFC 822; Atom `updated`, RFC 3339) is a date at all. */
export function isFeedDate(text: string): boolean {
  return isW3cDatetime(text) || !Number.isNaN(Date.parse(text));
}

/** The change frequency, lower-cased, or null when it is not one of the protocol's words. */
export function parseChangefreq(text: string): ChangeFreq | null {
  const lower = text.trim().toLowerCase();
  return CHANGEFREQS.has(lower) ? (lower as ChangeFreq) : null;
}

/** The priority as a number from 0 to 1, or null when it is not one. */
export function parsePriority(text: string): number | null {
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text.trim())) return null;
  const value = Number(text);
  return value >= 0 && value <= 1 ? value : null;
}
