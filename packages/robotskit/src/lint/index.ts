/**
 * `robotskit/lint`: the linter. `lint(input)` returns diagnostics as data (`{ code, severity, message, range, line,
 * column, fix? }`); `LINT_RULES` lists every rule with its documentation page; `applyFixes` applies their fixes.
 *
 * @example
 * import { lint } from 'robotskit/lint';
 * lint('User-agent: *\nDisalow: /private\n'); // [{ code: 'field-name-typo', … }]
 * @packageDocumentation
 */

export { applyFixes } from './fixes.js';
export { atLeast, LINT_RULES, type LintOptions, lint } from './lint.js';
export { LINT_DOCS_BASE, type LintContext, type LintRule, type Report, type SharedAnalysis } from './rule.js';
export type { Diagnostic, Fix, LintCode, Severity, TextEdit } from './types.js';
