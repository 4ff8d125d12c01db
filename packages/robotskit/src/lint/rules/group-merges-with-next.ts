/**
 * The lint rule `group-merges-with-next`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/group-merges-with-next.md.
 */

import type { RobotsGroup } from '../../model/types.js';
import { tokenPrefix } from '../../url/user-agent.js';
import { writtenGroups } from '../analysis/written-groups.js';
import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** What a user-agent value names, for comparison: its product token, lower-cased, or `*`. */
function agentKey(value: string): string {
  return /^\*(\s|$)/.test(value) ? '*' : tokenPrefix(value).toLowerCase();
}

/**
 * `group-merges-with-next`: a group without allow/disallow lines is not closed by the next user-agent line, so Google
 * gives its crawlers the next group's rules (RFC 9309 §2.2.4 is easy to misread here).
 */
export const groupMergesWithNext = defineRule({
  code: 'group-merges-with-next',
  name: 'Group merged with the next one',
  severity: 'warning',
  description:
    'A group with no allow/disallow line (only crawl-delay, say, or nothing) does not end at the next user-agent line: Google merges the two, and its crawlers get the next group\u2019s rules.',
  check(context) {
    const groups = context.shared(writtenGroups);
    // Per Google group, the last written group naming each crawler: one pass, so a long run of merged groups stays
    // linear (walking the rest of the run from every group of it was quadratic).
    const lastNaming = new Map<RobotsGroup, Map<string, number>>();
    groups.forEach((group, index) => {
      let names = lastNaming.get(group.parsed);
      if (names === undefined) {
        names = new Map();
        lastNaming.set(group.parsed, names);
      }
      for (const r of group.agents) names.set(agentKey(r.value), index);
    });
    groups.forEach((group, index) => {
      const next = group.next;
      if (group.hasRule || next === null || next.parsed !== group.parsed || group.parsed.rules.length === 0) return;
      // Merging is a surprise only for crawlers that the groups it merges into do not name already.
      const names = lastNaming.get(group.parsed)!;
      if (group.agents.every((r) => names.get(agentKey(r.value))! > index)) return;
      const first = group.agents[0]!;
      const last = group.agents[group.agents.length - 1]!;
      const named = group.agents.map((r) => r.value || '(empty)').join(', ');
      const kept = group.body.filter((r) => r.kind === 'directive').map((r) => r.key);
      const what = kept.length > 0 ? `only ${[...new Set(kept)].join(', ')}` : 'no rules';
      context.report({
        range: { start: context.contentRange(first).start, end: context.contentRange(last).end },
        message: `This group has ${what}, so Google merges it with the group at line ${next.agents[0]!.line}: ${quote(named)} get${group.agents.length === 1 ? 's' : ''} that group\u2019s rules; add rules here (an empty "Disallow:" allows everything) to keep them apart`,
      });
    });
  },
});
