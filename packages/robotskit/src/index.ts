/**
 * robotskit: robots.txt parsing, matching and explanation, bit-for-bit like Google's reference parser (RFC 9309).
 *
 * @example
 * import { parseRobotsTxt } from 'robotskit';
 * const robots = parseRobotsTxt(body);
 * robots.isAllowed('https://example.com/shop?id=1', 'Googlebot');
 * robots.explain('https://example.com/shop?id=1', 'Googlebot').line;
 * @packageDocumentation
 */

export type { DialectName } from './dialects/dialect.js';
export { applyFixes } from './lint/fixes.js';
export { atLeast, LINT_RULES, type LintOptions, lint } from './lint/lint.js';
export { LINT_DOCS_BASE, type LintContext, type LintRule, type Report, type SharedAnalysis } from './lint/rule.js';
export type { Diagnostic, Fix, LintCode, Severity, TextEdit } from './lint/types.js';
export { type CompiledPattern, compilePattern, matchPattern, normalizePattern } from './match/pattern.js';
export type { ParseOptions, UserAgentInput } from './model/robots-txt.js';
export { parseRobotsTxt, RobotsTxt } from './model/robots-txt.js';
export type {
  DecidingRule,
  Explanation,
  GroupMatch,
  InvalidReason,
  Range,
  RecordField,
  RecordFlags,
  RobotsAgent,
  RobotsExtension,
  RobotsGroup,
  RobotsRecord,
  RobotsRule,
  RuleKind,
} from './model/types.js';
export { DEFAULT_MAX_BYTES, type RobotsInput } from './parse/input.js';
export { MAX_LINE_BYTES } from './parse/lines.js';
export { pathOfUrl, pathToMatch } from './url/path.js';
export { isValidProductToken, productToken } from './url/user-agent.js';
