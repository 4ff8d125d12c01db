/**
 * The lint rule `multiple-global-groups`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/multiple-global-groups.md.
 */

import { defineRule } from '../rule.js';

/** `multiple-global-groups`: several `User-agent: *` groups, which Google merges and first-match crawlers do not. */
export const multipleGlobalGroups = defineRule({
  code: 'multiple-global-groups',
  name: 'Several * groups',
  severity: 'info',
  description:
    'More than one "User-agent: *" group: Google merges them, but crawlers that stop at the first matching group miss the later ones.',
  check(context) {
    let first = 0;
    for (const group of context.robots.groups) {
      const agent = group.agents.find((a) => a.global);
      if (agent === undefined) continue;
      if (first === 0) {
        first = agent.line;
        continue;
      }
      const range = context.record(agent.line).valueRange;
      if (range === null) continue;
      context.report({
        range,
        message: `Another "User-agent: *" group (the first is at line ${first}): Google merges them, but crawlers that read only the first matching group miss these rules`,
      });
    }
  },
});
