/**
 * The public shapes of a parsed robots.txt.
 *
 * Offsets (`range`, `keyRange`, `valueRange`) are in the units of the input: UTF-16 code units when a string was
 * parsed, bytes when bytes were parsed, so `input.slice(range.start, range.end)` gives back the text. Line numbers are
 * 1-based and count every line, blank ones included.
 */

import type { CrawlerProfile } from '../crawlers/profile.js';

/** A half-open span `[start, end)` of the input. */
export interface Range {
  readonly start: number;
  readonly end: number;
}

/** Which kind of rule. */
export type RuleKind = 'allow' | 'disallow';

/** An `allow` or `disallow` line inside a group. */
export interface RobotsRule {
  readonly kind: RuleKind;
  /**
   * The pattern as Google matches it: non-ASCII bytes percent-encoded, `%xx` escapes upper-cased. Its length is the
   * rule's priority. Empty for `disallow:` with no value (which allows everything).
   */
  readonly pattern: string;
  /** The value as written in the file (comment and surrounding whitespace removed). */
  readonly value: string;
  /** 1-based line. */
  readonly line: number;
}

/** A `user-agent` line. */
export interface RobotsAgent {
  /** 1-based line. */
  readonly line: number;
  /** The value as written (`Googlebot/2.1`, `*`). */
  readonly value: string;
  /**
   * The product token Google reads from it: the longest `[a-zA-Z_-]` prefix (`Googlebot/2.1` → `Googlebot`,
   * `Foo Bar` → `Foo`); empty for the global `*` or when the value starts with another character.
   */
  readonly token: string;
  /**
   * The line names the group for every crawler without a group of its own: `*` alone or followed by whitespace in the
   * `google` dialect, exactly `*` in the `legacy` dialect.
   */
  readonly global: boolean;
}

/** A line with a field Google does not use for matching: `crawl-delay`, `host`, `clean-param`, unknown keys. */
export interface RobotsExtension {
  /** 1-based line. */
  readonly line: number;
  /** The key as written. */
  readonly key: string;
  /** The key lower-cased, for comparisons (`crawl-delay`). */
  readonly name: string;
  /** The value as written. */
  readonly value: string;
}

/**
 * A group: one or more `user-agent` lines and the rules after them. The next `user-agent` line after a rule starts a
 * new group. Groups are kept as written; groups naming the same crawler are merged when matching.
 */
export interface RobotsGroup {
  /** Position of the group in the file, from 0. */
  readonly index: number;
  readonly agents: readonly RobotsAgent[];
  readonly rules: readonly RobotsRule[];
  /** Other fields written inside the group (e.g. `crawl-delay`), in file order. */
  readonly extensions: readonly RobotsExtension[];
  /** 1-based line of the first `user-agent` line. */
  readonly startLine: number;
  /** 1-based line of the last line that belongs to the group (its last agent, rule or extension). */
  readonly endLine: number;
}

/** What a line holds. `unknown` is a `key: value` line with a key Google does not use. */
export type RecordField = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'unknown';

/** Why a line with content yields no directive. */
export type InvalidReason =
  /** No colon and no whitespace between two tokens. */
  | 'no-separator'
  /** No colon, and more than two whitespace-separated tokens. */
  | 'too-many-tokens'
  /** Nothing before the separator. */
  | 'empty-key';

/** Facts about one line, as the reference's reporting parser records them, and a few more. */
export interface RecordFlags {
  /** Key and value separated by whitespace instead of a colon (Google accepts it; others may not). */
  readonly missingColon: boolean;
  /** The key is an accepted typo (`useragent`, `user agent`, `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`). */
  readonly typo: boolean;
  /** The key only starts with the field name (`disallowed:`, `sitemaps:`), which Google accepts. */
  readonly prefixKey: boolean;
  /** The line is longer than 16,663 bytes; the rest was dropped and the kept prefix parsed. */
  readonly tooLong: boolean;
  /** A NUL byte ended the line's content. */
  readonly nul: boolean;
  /** The line has a `#` comment. */
  readonly comment: boolean;
}

/** One line of the file, whatever it holds. */
export interface RobotsRecord {
  /** 1-based line. */
  readonly line: number;
  /**
   * `directive`: a `key: value` the parser read (see `field`); `blank`: only whitespace; `comment`: only a comment;
   * `invalid`: content the parser could not read as a directive (see `invalid`).
   */
  readonly kind: 'directive' | 'blank' | 'comment' | 'invalid';
  /** The field of a directive; null for other kinds. */
  readonly field: RecordField | null;
  /** The key as written; empty when the line is not a directive. */
  readonly key: string;
  /** The value as written, comment and surrounding whitespace removed; empty when not a directive. */
  readonly value: string;
  /** For `invalid` lines: why. */
  readonly invalid: InvalidReason | null;
  readonly flags: RecordFlags;
  /** The line as written, without its line break (and without a leading BOM on line 1), decoded as UTF-8. */
  readonly text: string;
  /** The whole line, without its line break (and without a leading BOM on line 1). */
  readonly range: Range;
  /** The key; null when the line is not a directive. */
  readonly keyRange: Range | null;
  /** The value; null when the line is not a directive. */
  readonly valueRange: Range | null;
  /** The comment, from `#` to the end of the line; null when there is none. */
  readonly commentRange: Range | null;
}

/** The rule that decided a URL. */
export interface DecidingRule {
  readonly kind: RuleKind;
  /** The pattern that matched, normalised (for the `index.htm` rule: the derived `<dir>/$`). */
  readonly pattern: string;
  /** 1-based line. */
  readonly line: number;
  /** True when the rule matched through Google's `allow: <dir>/index.htm[l]` → `<dir>/$` extension. */
  readonly indexHtml: boolean;
}

/** Which groups applied to the crawler. */
export type GroupMatch =
  /** Groups naming the crawler (merged); the `*` group is ignored. */
  | 'specific'
  /** No group names the crawler; the `*` group applies. */
  | 'global'
  /** Neither: nothing restricts the crawler. */
  | 'none';

/** The verdict for a URL and why. */
export interface Explanation {
  /** Whether the crawler may fetch the URL. */
  readonly allowed: boolean;
  /**
   * 1-based line of the rule that decided, 0 when no rule decided (the reference's `matching_line`). May point at an
   * empty `disallow:` that matched with priority 0 even though the URL is allowed.
   */
  readonly line: number;
  /** The deciding rule, null when `line` is 0. */
  readonly rule: DecidingRule | null;
  /** 1-based lines of the `user-agent` lines that selected the applying groups (the crawler's name, or `*`). */
  readonly groupLines: readonly number[];
  /** Which groups applied. */
  readonly groups: GroupMatch;
  /** The product token(s) compared with the file, comma-separated when several were given. */
  readonly userAgent: string;
  /** The product tokens compared with the file. */
  readonly userAgents: readonly string[];
  /** The path and query that were matched. */
  readonly path: string;
  /**
   * Set when the question was asked for a crawler profile: the crawler's name, and the token of its fallback order
   * whose groups applied (null when the `*` group applied, or nothing did).
   */
  readonly crawler?: { readonly name: string; readonly token: string | null };
  /**
   * Which AI usage preferences apply to the URL (as `RobotsTxt.usage` answers); present when a group of the
   * file holds a `Content-Usage` or `Content-Signal` line (lines before any group apply to no crawler).
   */
  readonly usage?: UsageAnswer;
}

/** One row of `RobotsTxt.crawlerMatrix`: a crawler's verdict for the URL. */
export interface CrawlerVerdict {
  readonly crawler: CrawlerProfile;
  /** Whether the crawler may fetch the URL. */
  readonly allowed: boolean;
  /** 1-based line of the deciding rule, 0 when none decided (as in {@link Explanation.line}). */
  readonly line: number;
  readonly rule: DecidingRule | null;
  /** Which groups applied: its own (`specific`), the `*` group (`global`), or none. */
  readonly groups: GroupMatch;
  /** The token of the crawler's fallback order whose groups applied; null for the `*` group or none. */
  readonly token: string | null;
}

/** A `crawl-delay` that applies to a crawler. */
export interface CrawlDelay {
  /** The delay in seconds, as written (decimals allowed). */
  readonly seconds: number;
  /** 1-based line of the `crawl-delay` line. */
  readonly line: number;
  /** Whether the crawler obeys `crawl-delay`: known for catalogue profiles, null when unknown. */
  readonly honoured: boolean | null;
}

/** A stated usage preference (draft-ietf-aipref-vocab). Unknown is no entry. */
export type UsagePreference = 'allow' | 'disallow';

/** Usage preferences by vocabulary label (`train-ai`); a category without an entry is unknown. */
export type UsagePreferences = Readonly<Record<string, UsagePreference>>;

/** A Content-Usage rule that decided. */
export interface UsageRule {
  /** 1-based line. */
  readonly line: number;
  /** The path pattern, normalised as the matcher reads it. */
  readonly pattern: string;
  /** The preference expression as written. */
  readonly expression: string;
  /** What this rule alone states. */
  readonly preferences: UsagePreferences;
}

/** What the Content-Signal lines of the crawler's groups say. */
export interface ContentSignalAnswer {
  /** 1-based lines of the Content-Signal lines read. */
  readonly lines: readonly number[];
  /** Each key as stated (`search: 'yes'`); a key stated on several lines keeps its most restrictive value. */
  readonly signals: Readonly<Record<string, string>>;
  /**
   * The signals carried over to vocabulary categories: `search` (the same use) and `ai-train` onto `train-ai` (whose
   * use it contains); `yes` is allow, `no` disallow.
   */
  readonly preferences: UsagePreferences;
  /** The signals with no category of the same use (`ai-input`, `use`, unknown keys), shown side by side. */
  readonly unmapped: Readonly<Record<string, string>>;
}

/** The answer of `RobotsTxt.usage`: may the crawler fetch the URL, and which usage preferences then apply. */
export interface UsageAnswer {
  /** Whether the crawler may fetch the URL (Allow/Disallow). Preferences apply only to URLs it may fetch. */
  readonly crawlable: boolean;
  /**
   * The preferences of the deciding Content-Usage rule(s), by current vocabulary label (`train-ai`, `ai-use`,
   * `search`); unknown categories are absent. Empty for a URL the crawler may not fetch.
   */
  readonly preferences: UsagePreferences;
  /** The deciding Content-Usage rules (several when rules of the same length matched), in line order. */
  readonly rules: readonly UsageRule[];
  /** What the groups' Content-Signal lines say; null when they have none or the URL may not be fetched. */
  readonly contentSignal: ContentSignalAnswer | null;
}
