/**
 * The lint rule `conflicting-rules`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/conflicting-rules.md.
 */

import { deadRules } from '../analysis/dead-rules.js';
import { poolName } from '../analysis/pools.js';
import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** `conflicting-rules`: an allow and a disallow with the same pattern for the same crawlers; the allow always wins. */
export const conflictingRules = defineRule({
  code: 'conflicting-rules',
  name: 'Allow and disallow with the same pattern',
  severity: 'warning',
  description:
    'An allow and a disallow with the same pattern apply to the same crawlers: Google lets the allow win, so the disallow does nothing.',
  check(context) {
    for (const dead of context.shared(deadRules).values()) {
      if (dead.reason !== 'conflict') continue;
      const range = context.record(dead.rule.line).valueRange;
      if (range === null) continue;
      context.report({
        range,
        message: `This disallow never applies (for ${poolName(dead.pool)}): "Allow: ${dead.by.value}" on line ${dead.by.line} has the same pattern ${quote(dead.rule.pattern)}, and Google lets allow win a tie`,
      });
    }
  },
});
