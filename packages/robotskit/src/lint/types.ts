/**
 * What the linter returns: diagnostics as plain data. Offsets (`range`) are the truth, in the units of the linted input
 * (UTF-16 code units for a string, bytes for bytes), exactly like {@link RobotsRecord.range}; line and column are
 * derived from them.
 */

import type { Range } from '../model/types.js';
import type * as rules from './rules/index.js';

/** How serious a diagnostic is. */
export type Severity =
  /** Google's parser cannot use the line (or part of the file): it is ignored. */
  | 'error'
  /** Google uses it, but probably not as the author meant, or other crawlers read it differently. */
  | 'warning'
  /** Worth knowing; nothing is wrong. */
  | 'info';

/** Every lint code, one per rule: stable kebab-case names, each documented in `docs/lint/<code>.md`. */
export type LintCode = (typeof rules)[keyof typeof rules]['code'];

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

/** One problem found in a robots.txt. */
export interface Diagnostic {
  readonly code: LintCode;
  readonly severity: Severity;
  /** One sentence saying what is wrong and what Google does with it. */
  readonly message: string;
  /**
   * The offending text: `input.slice(range.start, range.end)`. Problems of the whole file (no sitemap, empty file)
   * have an empty range at offset 0.
   */
  readonly range: Range;
  /** 1-based line of `range.start`. */
  readonly line: number;
  /** 1-based column of `range.start`, counted in the input's units from the start of its line. */
  readonly column: number;
  /** 1-based line of `range.end`. */
  readonly endLine: number;
  /** 1-based column of `range.end` (exclusive: the column just past the offending text). */
  readonly endColumn: number;
  /** An obvious correction, when there is one. */
  readonly fix?: Fix;
}
