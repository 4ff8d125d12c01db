/**
 * The shape of a lint rule and of what it reports (severity, message, range, fix): one rule per file under `rules/`,
 * registered by one line in `rules/index.ts`. Rules and `analysis/` import this module and nothing above it; the
 * diagnostic type, whose `code` is read off the registry, lives above them in `diagnostic.ts`.
 */

import type { Range, RobotsRecord } from '../model/types.js';
import type { RobotsTxt } from '../robots-txt/robots-txt.js';

/** How serious a diagnostic is. */
export type Severity =
  /** Google's parser cannot use the line (or part of the file): it is ignored. */
  | 'error'
  /** Google uses it, but probably not as the author meant, or other crawlers read it differently. */
  | 'warning'
  /** Worth knowing; nothing is wrong. */
  | 'info';

/** Replace the text of `range` with `text` (an empty range inserts, an empty text deletes). */
export interface TextEdit {
  readonly range: Range;
  readonly text: string;
}

/** An obvious correction: edits that, applied together, remove the problem. */
export interface Fix {
  /** What the fix does, e.g. `Replace "Useragent" with "User-agent"`. */
  readonly description: string;
  /** Non-overlapping edits, in offset order. */
  readonly edits: readonly TextEdit[];
}

/**
 * Where the documentation pages of the lint codes are published; a code's page is `<base><code>.md`. The pages ship
 * in this package (`docs/lint/`), so the base is the package's own files as the registry serves them, for this
 * version (a test keeps the version equal to package.json's).
 */
export const LINT_DOCS_BASE = 'https://unpkg.com/robotskit@0.1.0/docs/lint/';

/** What a rule reports; the linter adds the code, the severity, and line and column. */
export interface Report {
  /** The offending text, in input offsets (see {@link LintContext.units}). */
  readonly range: Range;
  readonly message: string;
  readonly fix?: Fix;
}

/** An analysis shared by several rules, computed at most once per linted file. */
export type SharedAnalysis<T> = (context: LintContext) => T;

/** What a rule sees of the file being linted. Everything is computed on first use. */
export interface LintContext {
  /** The file as Google's parser read it. */
  readonly robots: RobotsTxt;
  /** One record per parsed line (`robots.records`). */
  readonly records: readonly RobotsRecord[];
  /**
   * The input as a string whose indices are input offsets: the text itself for string input, one char per byte for
   * bytes. ASCII characters are the same in both, so search it for ASCII only; use {@link LintContext.text} to show
   * text to people.
   */
  readonly units: string;
  /** What offsets count. */
  readonly unit: 'utf-16' | 'byte';
  /** Length of the whole input, in its units (beyond what was parsed when the input was truncated). */
  readonly size: number;
  /** Input offset where parsing stopped (equal to `size` unless the input was longer than the parse limit). */
  readonly parsedEnd: number;
  /** The parsed bytes when the input was bytes and not all ASCII; null otherwise. */
  readonly bytes: Uint8Array | null;
  /** The robots.txt URL given in the options, if any. */
  readonly url: URL | null;
  /** The line break the file uses most (`\n` when it has none), for fixes that insert lines. */
  readonly lineBreak: string;
  /** The record of a 1-based line. */
  record(line: number): RobotsRecord;
  /** The text of an input range, decoded for display. */
  text(range: Range): string;
  /** The input offset of a byte offset of the parsed text. */
  offsetOfByte(byteOffset: number): number;
  /**
   * What Google reads of a line: from its first to its last non-whitespace character, before any comment, NUL or the
   * line-length cap. Empty (at the line start) for blank and comment-only lines.
   */
  contentRange(record: RobotsRecord): Range;
  /** The offset where Google's 16,663-byte line cap cuts a line (the line's end when it is shorter). */
  capOffset(record: RobotsRecord): number;
  /** An edit deleting a whole line and its line break. */
  deleteLine(record: RobotsRecord): { range: Range; text: string };
  /** The result of `analysis` for this file, computed once and shared by all rules. */
  shared<T>(analysis: SharedAnalysis<T>): T;
  /** Reports a problem. */
  report(report: Report): void;
}

/**
 * A lint rule.
 * @typeParam C The rule's code.
 */
export interface LintRule<C extends string = string> {
  /** Stable kebab-case code, e.g. `unknown-field`. */
  readonly code: C;
  /** A short title, e.g. `Unknown field`. */
  readonly name: string;
  /** The default severity (callers may override it). */
  readonly severity: Severity;
  /** One sentence: what the rule finds and why it matters. */
  readonly description: string;
  /** URL of the rule's documentation page (`docs/lint/<code>.md`): what, why, example, fix. */
  readonly docs: string;
  /** Finds the problems in a file and reports each with `context.report`. */
  check(context: LintContext): void;
}

/** Declares a rule; its documentation URL is derived from its code. */
export function defineRule<const C extends string>(rule: Omit<LintRule<C>, 'docs'>): LintRule<C> {
  return { ...rule, docs: `${LINT_DOCS_BASE}${rule.code}.md` };
}
