/**
 * The two ways preferences attach to a page (draft-ietf-aipref-attach): the robots.txt `Content-Usage` rule and the
 * page's `Content-Usage` HTTP response header, whose value is the same Structured Fields dictionary. Both are
 * statements about the same content, combined category by category, most restrictive first (any disallow gives
 * disallow, else any allow gives allow, else unknown). Header field lines are joined with `, ` before parsing, as
 * RFC 9651 combines the lines of one field, and read as bytes.
 */

import type { UsageAnswer, UsagePreferences } from '../model/types.js';
import { toSourceBytes } from '../parse/input.js';
import { combineUsagePreferences, preferencesOf } from './preferences.js';
import { parseSfDictionary } from './structured-fields.js';

/** What the page's `Content-Usage` header states. */
export interface HeaderUsage {
  /** The field lines as received, in order (bytes shown as text: UTF-8, a byte that is not shown as U+FFFD). */
  readonly lines: readonly string[];
  /** Whether the combined value parsed as a dictionary; when it did not, it states nothing. */
  readonly parsed: boolean;
  /** Why it did not parse (with the offset in the combined value); null when it did. */
  readonly error: string | null;
  /** The preferences it states, by current vocabulary label; unknown categories absent. */
  readonly preferences: UsagePreferences;
}

/** The preferences of the robots.txt rule and of the HTTP header for one URL and crawler, and their combination. */
export interface AttachedUsage {
  /** Whether the crawler may fetch the URL: preferences apply only to content it may fetch. */
  readonly crawlable: boolean;
  /** What the robots.txt `Content-Usage` rule(s) state (the `RobotsTxt.usage` answer's preferences). */
  readonly robotsTxt: UsagePreferences;
  /** What the header states; null when the response had no `Content-Usage` header. */
  readonly header: HeaderUsage | null;
  /**
   * Both combined, most restrictive per category; empty when the crawler may not fetch the URL (it never receives
   * the content, nor the header).
   */
  readonly combined: UsagePreferences;
}

const SEPARATOR = new Uint8Array([0x2c, 0x20]);

function bytesOf(line: string | Uint8Array): Uint8Array {
  if (line instanceof Uint8Array) return line;
  return new TextEncoder().encode(line);
}

/**
 * Reads the `Content-Usage` header field lines of a response (each a string, read as UTF-8, or bytes), joined as one
 * dictionary. An empty list means the response had no such header.
 * @throws TypeError when a line is neither a string nor bytes (a programmer error).
 */
export function headerUsage(lines: readonly (string | Uint8Array)[]): HeaderUsage | null {
  if (lines.length === 0) return null;
  const parts: Uint8Array[] = [];
  for (const [i, line] of lines.entries()) {
    if (typeof line !== 'string' && !(line instanceof Uint8Array))
      throw new TypeError('headerUsage: each line must be a string or a Uint8Array');
    if (i > 0) parts.push(SEPARATOR);
    parts.push(bytesOf(line));
  }
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  const { bin } = toSourceBytes(joined, Number.MAX_SAFE_INTEGER);
  const parsed = parseSfDictionary(bin, 0, bin.length);
  const shown = lines.map((l) => (typeof l === 'string' ? l : new TextDecoder().decode(l)));
  return {
    lines: shown,
    parsed: parsed.ok,
    error: parsed.ok ? null : `${parsed.reason} (at byte ${parsed.at})`,
    preferences: Object.freeze(preferencesOf(parsed)),
  };
}

/**
 * Combines the robots.txt answer for a URL (`RobotsTxt.usage`, or the `usage` of `explain`) with the page's
 * `Content-Usage` header field lines, as a crawler that fetched the page reads them.
 *
 * @example
 * attachedUsage(robots.usage(url, 'GPTBot'), ['train-ai=n']).combined // { 'train-ai': 'disallow', … }
 */
export function attachedUsage(robots: UsageAnswer, header: readonly (string | Uint8Array)[]): AttachedUsage {
  const fromHeader = headerUsage(header);
  const combined = robots.crawlable
    ? combineUsagePreferences(robots.preferences, fromHeader?.preferences ?? {})
    : Object.freeze({});
  return { crawlable: robots.crawlable, robotsTxt: robots.preferences, header: fromHeader, combined };
}
