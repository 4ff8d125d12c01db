/**
 * The lint rule `repeated-user-agent`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/repeated-user-agent.md.
 */

import { asciiLower } from '../../url/user-agent.js';
import { defineRule } from '../rule.js';

/** `repeated-user-agent`: one crawler named in several groups, which Google merges and first-match crawlers do not. */
export const repeatedUserAgent = defineRule({
  code: 'repeated-user-agent',
  name: 'Crawler named in several groups',
  severity: 'info',
  description:
    'The same crawler heads more than one group: Google merges them, but crawlers that stop at the first matching group miss the later ones.',
  check(context) {
    const firstLine = new Map<string, number>();
    for (const group of context.robots.groups) {
      const seenHere = new Set<string>();
      for (const agent of group.agents) {
        if (agent.global || agent.token === '') continue;
        const key = asciiLower(agent.token);
        if (seenHere.has(key)) continue;
        seenHere.add(key);
        const first = firstLine.get(key);
        if (first === undefined) {
          firstLine.set(key, agent.line);
          continue;
        }
        const range = context.record(agent.line).valueRange;
        if (range === null) continue;
        context.report({
          range,
          message: `"${agent.token}" already has a group (line ${first}): Google merges the two, but crawlers that read only the first matching group miss these rules`,
        });
      }
    }
  },
});
