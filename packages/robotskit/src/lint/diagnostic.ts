/**
 * What the linter returns: diagnostics as plain data. Offsets (`range`) are the truth, in the units of the linted input
 * (UTF-16 code units for a string, bytes for bytes), exactly like {@link RobotsRecord.range}; line and column are
 * derived from them.
 *
 * This module sits above the registry (`LintCode` is read off it) and the rules sit below it: a rule sees only
 * `rule.ts`, so the codes can join the union by themselves without an import circle.
 */

import type { Range } from '../model/types.js';
import type { Fix, Severity } from './rule.js';
import type * as rules from './rules/index.js';

/** Every lint code, one per rule: stable kebab-case names, each documented in `docs/lint/<code>.md`. */
export type LintCode = (typeof rules)[keyof typeof rules]['code'];

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
