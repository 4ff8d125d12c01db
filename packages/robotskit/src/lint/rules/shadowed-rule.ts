/**
 * The lint rule `shadowed-rule`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/shadowed-rule.md.
 */

import { deadRules } from '../analysis/dead-rules.js';
import { poolName } from '../analysis/pools.js';
import { defineRule } from '../rule.js';
import { quote } from '../words.js';

const SPELLING = { allow: 'Allow', disallow: 'Disallow' } as const;

/** `shadowed-rule`: a rule that a rule of the other kind always beats, so it never decides anything. */
export const shadowedRule = defineRule({
  code: 'shadowed-rule',
  name: 'Shadowed rule',
  severity: 'warning',
  description:
    'A rule that never takes effect: a rule of the other kind matches every URL it matches with a pattern at least as long, and Google picks the longest match.',
  check(context) {
    for (const dead of context.shared(deadRules).values()) {
      if (dead.reason !== 'shadowed') continue;
      const range = context.record(dead.rule.line).valueRange;
      if (range === null) continue;
      const by = `${SPELLING[dead.by.kind]}: ${dead.by.value}`;
      const tie = dead.by.pattern.length === dead.rule.pattern.length ? 'as long (allow wins ties)' : 'longer';
      context.report({
        range,
        message: `This rule never takes effect (for ${poolName(dead.pool)}): ${quote(by)} on line ${dead.by.line} matches every URL it matches and its pattern is ${tie}, so Google always picks it`,
      });
    }
  },
});
