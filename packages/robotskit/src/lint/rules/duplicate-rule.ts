/**
 * The lint rule `duplicate-rule`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/duplicate-rule.md.
 */

import { deadRules } from '../analysis/dead-rules.js';
import { poolName } from '../analysis/pools.js';
import { defineRule } from '../rule.js';

/** `duplicate-rule`: the same rule twice for the same crawlers. */
export const duplicateRule = defineRule({
  code: 'duplicate-rule',
  name: 'Duplicate rule',
  severity: 'info',
  description: 'The same allow or disallow pattern twice for the same crawlers; the second changes nothing.',
  check(context) {
    for (const dead of context.shared(deadRules).values()) {
      if (dead.reason !== 'duplicate') continue;
      const record = context.record(dead.rule.line);
      if (record.valueRange === null) continue;
      const sameGroup = dead.pool.groups.length === 1;
      context.report({
        range: record.valueRange,
        message: `Same rule as line ${dead.by.line}${sameGroup ? '' : ` (groups for ${poolName(dead.pool)} are merged)`}: this one changes nothing`,
        fix: { description: 'Delete this line', edits: [context.deleteLine(record)] },
      });
    }
  },
});
