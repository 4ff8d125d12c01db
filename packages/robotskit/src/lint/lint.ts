/**
 * `lint()`: runs every rule over a parsed file and turns what they report into diagnostics with line and column.
 */

import type { RobotsInput } from '../parse/input.js';
import { parseRobotsTxt, RobotsTxt } from '../robots-txt/robots-txt.js';
import { LintFile } from './context.js';
import type { Diagnostic, LintCode } from './diagnostic.js';
import type { LintRule, Report, Severity } from './rule.js';
import * as registry from './rules/index.js';

/** Every lint rule, sorted by code. */
export const LINT_RULES: readonly LintRule<LintCode>[] = Object.values(registry).sort((a, b) =>
  a.code < b.code ? -1 : 1,
);

const RULES_BY_CODE = new Map<string, LintRule<LintCode>>(LINT_RULES.map((r) => [r.code, r]));

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Options of {@link lint}. */
export interface LintOptions {
  /**
   * The URL the robots.txt was fetched from (`https://example.com/robots.txt`). Optional; it lets fixes resolve
   * relative sitemap URLs.
   */
  readonly url?: string | URL;
  /**
   * Per-code severity overrides, or `'off'` to skip a rule.
   * @example { 'no-sitemap': 'off', 'ignored-directive': 'info' }
   */
  readonly rules?: Readonly<Partial<Record<LintCode, Severity | 'off'>>>;
}

/** Whether severity `a` is at least as serious as `b`. */
export function atLeast(a: Severity, b: Severity): boolean {
  return SEVERITY_RANK[a] <= SEVERITY_RANK[b];
}

function checkOptions(options: LintOptions): URL | null {
  for (const [code, level] of Object.entries(options.rules ?? {})) {
    if (!RULES_BY_CODE.has(code)) throw new RangeError(`unknown lint code: ${code}`);
    if (level !== 'off' && !(level in SEVERITY_RANK))
      throw new RangeError(`bad severity for ${code}: ${String(level)}`);
  }
  if (options.url === undefined) return null;
  if (options.url instanceof URL) return options.url;
  try {
    return new URL(options.url);
  } catch {
    throw new TypeError(`options.url is not a URL: ${options.url}`);
  }
}

/**
 * Lints a robots.txt: every problem Google's parser has with it (errors: lines it ignores), everything it reads
 * differently from what the author probably meant or from what other crawlers do (warnings), and useful facts (info).
 * The linter reads the file exactly as {@link parseRobotsTxt} does (pass a parsed {@link RobotsTxt} to reuse it).
 * Never throws on content.
 *
 * Diagnostics come sorted by position. Their offsets are in the input's units: UTF-16 code units for a string, bytes
 * for bytes (so `input.slice(d.range.start, d.range.end)` is the offending text); line and column are derived from
 * them. Pass bytes to have encoding problems (non-UTF-8, UTF-16) reported.
 *
 * @throws RangeError or TypeError only for bad options (an unknown code, a severity that does not exist, a bad URL).
 * @example
 * for (const d of lint('User-agent: *\nDisalow: /private')) console.log(`${d.line}:${d.column} ${d.code} ${d.message}`);
 * // 2:1 unknown-field Google ignores this line: "Disalow" is not a field it knows (did you mean "Disallow"?)
 */
export function lint(input: RobotsInput | RobotsTxt, options: LintOptions = {}): Diagnostic[] {
  const url = checkOptions(options);
  const robots = input instanceof RobotsTxt ? input : parseRobotsTxt(input);
  let raw: Uint8Array | null = null;
  if (input instanceof Uint8Array) raw = input;
  else if (input instanceof ArrayBuffer) raw = new Uint8Array(input);

  const found: { rule: LintRule<LintCode>; severity: Severity; report: Report }[] = [];
  let current: { rule: LintRule<LintCode>; severity: Severity } | null = null;
  const file = new LintFile(robots, raw, url, (report) => {
    if (current !== null) found.push({ ...current, report });
  });
  for (const rule of LINT_RULES) {
    const level = options.rules?.[rule.code] ?? rule.severity;
    if (level === 'off') continue;
    current = { rule, severity: level };
    rule.check(file);
  }
  current = null;

  const lines = file.lines;
  const diagnostics = found.map(({ rule, severity, report }): Diagnostic => {
    const start = lines.position(report.range.start);
    const end = lines.position(report.range.end);
    return {
      code: rule.code,
      severity,
      message: report.message,
      range: { start: report.range.start, end: report.range.end },
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      ...(report.fix ? { fix: report.fix } : {}),
    };
  });
  return diagnostics.sort(
    (a, b) =>
      a.range.start - b.range.start ||
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
      a.range.end - b.range.end,
  );
}
