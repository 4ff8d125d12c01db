/**
 * `robotskit/lint`: the linter. `lint(input)` returns diagnostics as data (`{ code, severity, message, range, line,
 * column, fix? }`); `LINT_RULES` lists every rule with its documentation page; `applyFixes` applies their fixes.
 *
 * @example
 * import { lint } from 'robotskit/lint';
 * lint('User-agent: *\nDisalow: /private\n'); // [{ code: 'field-name-typo', … }]
 * @packageDocumentation
 */

export type { Diagnostic, LintCode } from './diagnostic.js';
export { applyFixes } from './fixes.js';
export { atLeast, LINT_RULES, type LintOptions, lint } from './lint.js';
export { type Fix, LINT_DOCS_BASE, type LintRule, type Severity, type TextEdit } from './rule.js';
