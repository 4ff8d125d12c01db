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
    for (const group of context.shared(writtenGroups)) {
      const next = group.next;
      if (group.hasRule || next === null || next.parsed !== group.parsed || group.parsed.rules.length === 0) continue;
      // Merging is a surprise only for crawlers that the groups it merges into do not name already.
      const later = new Set<string>();
      for (let g: typeof next | null = next; g !== null && g.parsed === group.parsed; g = g.next) {
        for (const r of g.agents) later.add(agentKey(r.value));
      }
      if (group.agents.every((r) => later.has(agentKey(r.value)))) continue;
      const first = group.agents[0]!;
      const last = group.agents[group.agents.length - 1]!;
      const names = group.agents.map((r) => r.value || '(empty)').join(', ');
      const kept = group.body.filter((r) => r.kind === 'directive').map((r) => r.key);
      const what = kept.length > 0 ? `only ${[...new Set(kept)].join(', ')}` : 'no rules';
      context.report({
        range: { start: context.contentRange(first).start, end: context.contentRange(last).end },
        message: `This group has ${what}, so Google merges it with the group at line ${next.agents[0]!.line}: ${quote(names)} get${group.agents.length === 1 ? 's' : ''} that group\u2019s rules; add rules here (an empty "Disallow:" allows everything) to keep them apart`,
      });
    }
  },
});
