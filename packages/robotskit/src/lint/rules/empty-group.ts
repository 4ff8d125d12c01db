/**
 * The lint rule `empty-group`, one file of the registry (`index.ts`); what it finds and why: docs/lint/empty-group.md.
 */

import { rulePools } from '../analysis/pools.js';
import { writtenGroups } from '../analysis/written-groups.js';
import { defineRule } from '../rule.js';

/** `empty-group`: a crawler whose groups hold no rule may crawl everything, and ignores the `*` group. */
export const emptyGroup = defineRule({
  code: 'empty-group',
  name: 'Group without rules',
  severity: 'warning',
  description:
    'A user-agent group with no allow/disallow line: its crawlers may fetch everything, and they no longer read the * group.',
  check(context) {
    const pools = context.shared(rulePools);
    const emptyAgents = new Set<string>();
    for (const pool of pools)
      if (pool.rules.length === 0) for (const a of pool.agents) emptyAgents.add(a.toLowerCase());
    if (emptyAgents.size === 0) return;
    for (const group of context.shared(writtenGroups)) {
      // Only the last written group of a merged run: the earlier ones are what merged into it.
      if (group.hasRule || group.parsed.rules.length > 0 || group.next?.parsed === group.parsed) continue;
      const names = group.parsed.agents
        .filter((a) => (a.global ? emptyAgents.has('*') : a.token !== '' && emptyAgents.has(a.token.toLowerCase())))
        .map((a) => (a.global ? '*' : a.token));
      if (names.length === 0) continue;
      const first = group.agents[0]!;
      const last = group.agents[group.agents.length - 1]!;
      const named = names.filter((n) => n !== '*');
      const consequence =
        named.length > 0
          ? `${[...new Set(named)].join(', ')} may fetch every URL and ignore the rules of the * group`
          : 'it allows every URL';
      context.report({
        range: { start: context.contentRange(first).start, end: context.contentRange(last).end },
        message: `This group has no allow or disallow line: ${consequence}`,
      });
    }
  },
});
