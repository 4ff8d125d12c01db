/**
 * The lint rule `rule-outside-group`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/rule-outside-group.md.
 */

import { defineRule } from '../rule.js';

/** `rule-outside-group`: allow/disallow lines before the first user-agent line belong to no group. */
export const ruleOutsideGroup = defineRule({
  code: 'rule-outside-group',
  name: 'Rule outside any group',
  severity: 'error',
  description: 'An allow or disallow line before any user-agent line belongs to no group; Google ignores it.',
  check(context) {
    for (const rule of context.robots.orphanRules) {
      context.report({
        range: context.contentRange(context.record(rule.line)),
        message: `Google ignores this rule: it comes before any User-agent line, so it applies to no crawler`,
      });
    }
  },
});
